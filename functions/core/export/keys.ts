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
