/**
 * The commit protocol of one report's partition — the one way the export step (and lookback, which
 * re-exports through it) makes written data visible, the same for the folder and the S3 sinks.
 *
 * Parts are written to the run's staging folder (`stagingFolder`), outside every partition. Nothing
 * in the partition or the window's manifest changes until `commit`, which, holding the window's lease:
 *   1. deletes `_SUCCESS` of each format folder      (manifest: old entry, partition: old parts)
 *   2. marks the report's entry "failed: being rewritten by run …" with no files
 *   3. moves the staged parts in (over the old names) and deletes the old parts not replaced
 *   4. writes the report's new entry (files, sha256, rows)
 *   5. writes `_SUCCESS` of each format folder
 * So at every instant either the manifest entry lists exactly the partition's parts, or it says the
 * partition is not valid and `_SUCCESS` is absent. `discard` (a failure before step 1) drops the
 * staged parts and leaves the previous partition, `_SUCCESS` and manifest entry as they were.
 */
import type { Format } from '../export/formats';
import { manifestKey, partitionPrefix, stagingFolder, successKey } from '../export/keys';
import type { ManifestFile, ManifestReport, Window } from '../manifest';
import type { Sink } from '../sink';
import { mergeReports, updateWindowManifest } from './window-manifest';

export interface PartitionTarget {
  readonly prefix: string;
  readonly scheduleId: string;
  readonly reportId: string;
  readonly runId: string;
  readonly scheduledTime: string;
  readonly window: Window;
  readonly formats: readonly Format[];
  /** The schedule's report ids, in config order (the manifest lists reports in this order). */
  readonly order: readonly string[];
}

export interface PartitionCommit {
  /** Where the export writes its parts, per format. */
  readonly staging: Readonly<Record<Format, string>>;
  /** The window's manifest, which `commit` writes the report's entry into. */
  readonly manifestKey: string;
  /** Makes the staged parts the report's partition; returns the entry with the parts' final keys. */
  commit(staged: ManifestReport): Promise<ManifestReport>;
  /** Drops what was staged; the previous partition and manifest entry stay untouched. Never throws. */
  discard(): Promise<void>;
}

/** Something that confirms the window's lease is still held (renewing it) or throws LEASE_LOST. */
export interface LeaseCheck {
  renew(): Promise<void>;
}

export function partitionCommit(
  sink: Sink,
  t: PartitionTarget,
  lease: LeaseCheck,
  now: () => Date,
): PartitionCommit {
  const staging = folders(t, (f) =>
    stagingFolder(t.prefix, t.scheduleId, t.window.end, t.runId, t.reportId, f),
  );
  const partition = folders(t, (f) => partitionPrefix(t.prefix, t.scheduleId, t.reportId, f, t.window.end));
  const mKey = manifestKey(t.prefix, t.scheduleId, t.window.end);
  const setEntry = (entry: ManifestReport) =>
    updateWindowManifest(sink, mKey, (current) =>
      mergeReports(
        current,
        {
          scheduleId: t.scheduleId,
          runId: t.runId,
          scheduledTime: t.scheduledTime,
          window: t.window,
          startedAt: current?.runId === t.runId ? current.startedAt : now().toISOString(),
          finishedAt: now().toISOString(),
        },
        [entry],
        t.order,
      ),
    );

  return {
    staging,
    manifestKey: mKey,
    async commit(staged) {
      const files = staged.files.map((f) => finalFile(f, staging, partition));
      await lease.renew();
      await sink.deleteObjects(t.formats.map((f) => successKey(partition[f])));
      await setEntry({
        ...staged,
        status: 'failed',
        totals: {},
        files: [],
        error: `being rewritten by run ${t.runId} since ${now().toISOString()}; not valid until that run commits it`,
      });
      for (const [i, f] of staged.files.entries()) {
        const to = files[i]?.key ?? f.key;
        if (to !== f.key) await sink.moveObject(f.key, to);
      }
      const kept = new Set(files.map((f) => f.key));
      for (const format of t.formats) {
        const folder = partition[format];
        const stale = (await sink.list(folder)).filter((k) => !kept.has(k) && k !== successKey(folder));
        if (stale.length > 0) await sink.deleteObjects(stale);
      }
      const entry: ManifestReport = { ...staged, files };
      await setEntry(entry);
      for (const format of t.formats) await sink.putObject(successKey(partition[format]), '', 'text/plain');
      return entry;
    },
    async discard() {
      try {
        const keys = (await Promise.all(t.formats.map((f) => sink.list(staging[f])))).flat();
        if (keys.length > 0) await sink.deleteObjects(keys);
      } catch {
        // the next run of this window removes the staging folder
      }
    },
  };
}

function folders(t: PartitionTarget, of: (f: Format) => string): Record<Format, string> {
  return Object.fromEntries(t.formats.map((f) => [f, of(f)])) as Record<Format, string>;
}

function finalFile(
  f: ManifestFile,
  staging: Readonly<Record<Format, string>>,
  partition: Readonly<Record<Format, string>>,
): ManifestFile {
  const from = staging[f.format];
  const key = f.key.startsWith(from) ? partition[f.format] + f.key.slice(from.length) : f.key;
  return { ...f, key };
}
