/**
 * Finish a run: record every earlier window the run re-exported (lookback: `history` and failed
 * re-exports into that window's manifest, see `restate.ts`), read the previous manifest — revised by
 * then — for the email's deltas, write this run's own record (`runs/{runId}.json`, with `restated`),
 * merge its outcomes into the window's manifest (see `core/commit/close.ts`), then send the
 * summaries when there is a mailer and anyone to send them to — revisions told against the figures
 * last emailed (`emailed.ts`), which the sent email then updates. The email, the completion event and
 * the CLI's exit code describe this run (its record), not the window's merged state.
 *
 * A failed email does not throw: the data and manifests are written by then, so the result carries
 * the manifest and `emailError`, and each caller decides (the Finalize handler announces the run,
 * then fails the execution so the alarm fires; the CLI prints the run, then exits 1).
 */

import { closeWindow } from '../commit/close';
import type { Config } from '../config/schema';
import { hasAudience } from '../email/recipients';
import { deliverSummary } from '../email/summary';
import { describeError, ExporterError } from '../errors';
import { manifestKey, manifestsPrefix, manifestWindowEnd, runRecordKey } from '../export/keys';
import { type Manifest, ManifestSchema, type RestatedWindow, runStatus } from '../manifest';
import type { Sink } from '../sink';
import { againstEmailed, recordEmailed } from './emailed';
import { findSchedule } from './lookup';
import { restateWindow } from './restate';
import type { FinalizeDeps, FinalizeResult, ReportOutcome, RunPlan } from './types';

/**
 * Writes the manifest and sends the summary. Outcomes are listed in the plan's task order. Throws
 * only when the run could not be recorded; an email that failed is `emailError` in the result.
 */
export async function finalizeRun(
  config: Config,
  plan: RunPlan,
  outcomes: readonly ReportOutcome[],
  deps: FinalizeDeps,
): Promise<FinalizeResult> {
  const schedule = findSchedule(config, plan.scheduleId);
  const order = new Map(plan.tasks.map((t, i) => [`${t.window.end}/${t.reportId}`, i]));
  const rank = (o: ReportOutcome) => order.get(`${windowEnd(plan, o)}/${o.manifest.reportId}`) ?? 0;
  const inOrder = [...outcomes].sort((a, b) => rank(a) - rank(b));
  const sorted = inOrder.filter((o) => windowEnd(plan, o) === plan.window.end);
  const reports = sorted.map((o) => o.manifest);
  const restated: RestatedWindow[] = [];
  const reportOrder = schedule.reports.map((r) => r.id);
  // Earlier windows first (this run still holds their leases; `closeWindow` releases them).
  for (const earlier of plan.lookback) {
    const mine = inOrder.filter((o) => windowEnd(plan, o) === earlier.window.end);
    if (mine.length === 0) continue;
    const key = manifestKey(config.output.prefix, plan.scheduleId, earlier.window.end);
    restated.push(
      await restateWindow(deps.sink, {
        plan,
        earlier,
        outcomes: mine,
        order: reportOrder,
        manifestKey: key,
        finishedAt: deps.now().toISOString(),
      }),
    );
    deps.log.info('earlier window restated', { key, window: earlier.window.end });
  }
  const previous = await previousManifest(deps.sink, config.output.prefix, plan.scheduleId, plan.window.end);
  const manifest: Manifest = {
    manifestVersion: 1,
    scheduleId: plan.scheduleId,
    runId: plan.runId,
    scheduledTime: plan.scheduledTime,
    window: plan.window,
    startedAt: plan.startedAt,
    finishedAt: deps.now().toISOString(),
    status: runStatus(reports),
    reports,
    ...(restated.length > 0 ? { restated } : {}),
  };
  const recordKey = runRecordKey(config.output.prefix, plan.scheduleId, plan.window.end, plan.runId);
  await deps.sink.putObject(recordKey, `${JSON.stringify(manifest, null, 2)}\n`, 'application/json');
  const key = await closeWindow(config, plan, reports, deps, restated);

  let emailed = 0;
  let emailError: ExporterError | undefined;
  if (deps.mailer && hasAudience(config, schedule)) {
    try {
      // the revisions as stakeholders need them: against what the last email about each window said
      const told = manifest.restated
        ? {
            ...manifest,
            restated: await againstEmailed(
              deps.sink,
              config.output.prefix,
              plan.scheduleId,
              manifest.restated,
            ),
          }
        : manifest;
      const result = await deliverSummary(
        {
          config,
          schedule,
          manifest: told,
          previous,
          top: Object.fromEntries(sorted.map((o) => [o.manifest.reportId, o.top])),
          locate: (k) => deps.sink.locate(k),
          readObject: (k) => deps.sink.getObject(k),
          ...(deps.readParameter ? { readParameter: deps.readParameter } : {}),
        },
        deps.mailer,
      );
      emailed = result.sent;
    } catch (err: unknown) {
      emailError = new ExporterError(
        'EMAIL_FAILED',
        `the summary email was not sent: ${describeError(err)}`,
        {
          cause: err,
        },
      );
    }
  }
  if (emailed > 0) {
    try {
      await recordEmailed(deps.sink, config.output.prefix, manifest);
    } catch (err: unknown) {
      // the email is out; the next one may then repeat a revision, which is the lesser harm
      deps.log.warn('could not record the figures emailed', { error: describeError(err) });
    }
  }
  return { manifestKey: key, runRecordKey: recordKey, manifest, emailed, emailError };
}

/** The schedule's latest manifest with a window end before `windowEnd`, or null. */
export async function previousManifest(
  sink: Sink,
  prefix: string,
  scheduleId: string,
  windowEnd: string,
): Promise<Manifest | null> {
  const keys = await sink.list(manifestsPrefix(prefix, scheduleId));
  const dated = keys
    .map((k) => ({ k, dt: manifestWindowEnd(k) }))
    .filter((e): e is { k: string; dt: string } => e.dt !== null && e.dt < windowEnd)
    .sort((a, b) => (a.dt < b.dt ? 1 : -1));
  const latest = dated[0];
  return latest ? readManifest(sink, latest.k) : null;
}

/** The window an outcome belongs to (outcomes without one are the run's own window). */
function windowEnd(plan: RunPlan, outcome: ReportOutcome): string {
  return outcome.window?.end ?? plan.window.end;
}

/** The manifest at `key`, or null when it is missing or unreadable. */
async function readManifest(sink: Sink, key: string): Promise<Manifest | null> {
  const body = await sink.getObject(key);
  if (!body) return null;
  try {
    const parsed = ManifestSchema.safeParse(JSON.parse(new TextDecoder().decode(body)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
