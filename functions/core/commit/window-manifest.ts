/**
 * The window's manifest is shared by every report of the window and by re-runs of some of them, so it
 * is only ever changed by read → merge → conditional write (compare-and-swap on its entity tag),
 * serialised within a process and retried when another writer got in between. Only the lease holder
 * writes it, so the retries are the parallel Export steps of one run.
 */
import { ExporterError } from '../errors';
import { type Manifest, type ManifestReport, ManifestSchema, runStatus } from '../manifest';
import type { Sink } from '../sink';

const queues = new Map<string, Promise<unknown>>();

/** Applies `change` to the window's manifest (null when there is none yet) and writes the result. */
export async function updateWindowManifest(
  sink: Sink,
  key: string,
  change: (current: Manifest | null) => Manifest,
): Promise<Manifest> {
  const queueKey = `${sink.locate(key)}`;
  const previous = queues.get(queueKey) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => casLoop(sink, key, change));
  queues.set(queueKey, next);
  try {
    return await next;
  } finally {
    if (queues.get(queueKey) === next) queues.delete(queueKey);
  }
}

async function casLoop(
  sink: Sink,
  key: string,
  change: (current: Manifest | null) => Manifest,
): Promise<Manifest> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const got = await sink.getTagged(key);
    const current = got ? parseManifest(got.body) : null;
    const updated = change(current);
    const body = `${JSON.stringify(updated, null, 2)}\n`;
    const condition = got ? { ifMatch: got.etag } : ({ ifNoneMatch: '*' } as const);
    if ((await sink.putIf(key, body, 'application/json', condition)) !== null) return updated;
  }
  throw new ExporterError(
    'WRITE_FAILED',
    `the manifest ${sink.locate(key)} kept changing while being merged`,
  );
}

export function parseManifest(body: Uint8Array): Manifest | null {
  try {
    const parsed = ManifestSchema.safeParse(JSON.parse(new TextDecoder().decode(body)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The run-level fields a window manifest is (re)written with. */
export type ManifestHead = Omit<Manifest, 'reports' | 'status' | 'manifestVersion'>;

/**
 * Puts `entries` into the window's manifest, replacing the same report ids and keeping the others;
 * reports are ordered as the schedule lists them (`order`), unknown ones last.
 */
export function mergeReports(
  current: Manifest | null,
  head: ManifestHead,
  entries: readonly ManifestReport[],
  order: readonly string[],
): Manifest {
  const byId = new Map((current?.reports ?? []).map((r) => [r.reportId, r]));
  for (const e of entries) byId.set(e.reportId, e);
  const rank = (id: string) => {
    const i = order.indexOf(id);
    return i === -1 ? order.length : i;
  };
  const reports = [...byId.values()].sort((a, b) => rank(a.reportId) - rank(b.reportId));
  return { manifestVersion: 1, ...head, status: runStatus(reports), reports };
}
