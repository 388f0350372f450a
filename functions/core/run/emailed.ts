/**
 * The figures last emailed for each window (`emailed.json` beside the window's manifest): what
 * stakeholders were told. The "Revised" section compares a re-exported window with them rather than
 * with the entry the re-export replaced, so a restatement is reported exactly once, by the first email
 * after it — also when a run that committed the re-export was killed before its email, and the re-run
 * finds the new figures already in place (before = after in its own `restated` record).
 */
import * as z from 'zod/mini';
import { emailedKey } from '../export/keys';
import { keyedRecord } from '../keyed-record';
import { type Manifest, type RestatedWindow, TotalValueSchema } from '../manifest';
import { own } from '../records';
import type { Sink } from '../sink';

const EmailedSchema = z.object({
  /** Report id → the totals the last email that showed the window had for it. */
  reports: keyedRecord(z.object({ totals: keyedRecord(TotalValueSchema) })),
});
type Emailed = z.infer<typeof EmailedSchema>;

async function readEmailed(sink: Sink, key: string): Promise<Emailed | null> {
  const body = await sink.getObject(key);
  if (!body) return null;
  try {
    const parsed = EmailedSchema.safeParse(JSON.parse(new TextDecoder().decode(body)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * `restated` as the email should tell it: each succeeded re-export's "before" is what the last email
 * about that window said, where one did (else the entry the re-export replaced).
 */
export async function againstEmailed(
  sink: Sink,
  prefix: string,
  scheduleId: string,
  restated: readonly RestatedWindow[],
): Promise<RestatedWindow[]> {
  const out: RestatedWindow[] = [];
  for (const w of restated) {
    const told = await readEmailed(sink, emailedKey(prefix, scheduleId, w.window.end));
    out.push({
      ...w,
      reports: w.reports.map((r) => {
        const was = told ? own(told.reports, r.reportId) : undefined;
        if (r.status !== 'succeeded' || was === undefined) return r;
        const totals = Object.fromEntries(
          Object.entries(r.totals).map(([metric, t]) => [
            metric,
            { ...t, before: own(was.totals, metric) ?? null },
          ]),
        );
        return { ...r, totals };
      }),
    });
  }
  return out;
}

/**
 * After an email went out: records the figures it told — the run's own window's succeeded reports,
 * and each re-exported window's new figures — merged over what earlier emails told (a report that
 * failed keeps what was said before).
 */
export async function recordEmailed(sink: Sink, prefix: string, manifest: Manifest): Promise<void> {
  const windows: [string, [string, Emailed['reports'][string]][]][] = [
    [
      manifest.window.end,
      manifest.reports.filter((r) => r.status === 'succeeded').map((r) => [r.reportId, { totals: r.totals }]),
    ],
    ...(manifest.restated ?? []).map((w): [string, [string, Emailed['reports'][string]][]] => [
      w.window.end,
      w.reports
        .filter((r) => r.status === 'succeeded')
        .map((r) => [
          r.reportId,
          {
            totals: Object.fromEntries(
              Object.entries(r.totals).flatMap(([m, t]) => (t.after === null ? [] : [[m, t.after]])),
            ),
          },
        ]),
    ]),
  ];
  for (const [end, reports] of windows) {
    if (reports.length === 0) continue;
    const key = emailedKey(prefix, manifest.scheduleId, end);
    const before = await readEmailed(sink, key);
    const merged: Emailed = { reports: { ...(before?.reports ?? {}), ...Object.fromEntries(reports) } };
    await sink.putObject(key, `${JSON.stringify(merged, null, 2)}\n`, 'application/json');
  }
}
