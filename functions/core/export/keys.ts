/**
 * Object keys (docs/export.md, "Layout"). Keys are a function of (schedule, report, format, window end), so a
 * re-run writes over its own partition.
 */
export type Format = 'parquet' | 'csv';

export function partitionPrefix(
  prefix: string,
  scheduleId: string,
  reportId: string,
  format: Format,
  windowEnd: string,
): string {
  return `${prefix}${scheduleId}/${reportId}/${format}/dt=${windowEnd}/`;
}

export function partKey(folder: string, format: Format, index: number): string {
  return `${folder}part-${String(index).padStart(5, '0')}.${format}`;
}

export function successKey(folder: string): string {
  return `${folder}_SUCCESS`;
}

export function manifestsPrefix(prefix: string, scheduleId: string): string {
  return `${prefix}${scheduleId}/_manifests/`;
}

export function manifestKey(prefix: string, scheduleId: string, windowEnd: string): string {
  return `${manifestsPrefix(prefix, scheduleId)}dt=${windowEnd}/manifest.json`;
}

export const CONTENT_TYPES: Readonly<Record<Format, string>> = {
  parquet: 'application/vnd.apache.parquet',
  csv: 'text/csv; charset=utf-8',
};

/** The folder of a window's manifest, its lease and its runs' records. */
export function windowFolder(prefix: string, scheduleId: string, windowEnd: string): string {
  return `${manifestsPrefix(prefix, scheduleId)}dt=${windowEnd}/`;
}

/** The window's lease: held by the one run writing the window (see `core/commit/lease.ts`). */
export function leaseKey(prefix: string, scheduleId: string, windowEnd: string): string {
  return `${windowFolder(prefix, scheduleId, windowEnd)}_lease.json`;
}

/** One run's own record (its reports as that run saw them), kept beside the window's manifest. */
export function runRecordKey(prefix: string, scheduleId: string, windowEnd: string, runId: string): string {
  return `${windowFolder(prefix, scheduleId, windowEnd)}runs/${runId}.json`;
}

/**
 * Where a window's parts are written before they are committed: outside every partition folder, so a
 * reader's glob over a partition never sees them. Everything below it belongs to the lease holder.
 */
export function stagingPrefix(prefix: string, scheduleId: string, windowEnd: string): string {
  return `${prefix}${scheduleId}/_staging/dt=${windowEnd}/`;
}

export function stagingFolder(
  prefix: string,
  scheduleId: string,
  windowEnd: string,
  runId: string,
  reportId: string,
  format: Format,
): string {
  return `${stagingPrefix(prefix, scheduleId, windowEnd)}${runId}/${reportId}/${format}/`;
}
