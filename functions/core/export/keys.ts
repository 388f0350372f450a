/**
 * The object-key layout, built and parsed here and nowhere else (docs/export.md "Layout"). Keys are a
 * function of (schedule, report, format, window end), so a re-run writes over its own partition:
 *
 *   {prefix}{scheduleId}/{reportId}/{format}/dt={windowEnd}/part-00000.{extension}
 *   {prefix}{scheduleId}/{reportId}/{format}/dt={windowEnd}/_SUCCESS
 *   {prefix}{scheduleId}/{reportId}/_model/v000001.json          the report's column model, versioned
 *   {prefix}{scheduleId}/_manifests/dt={windowEnd}/manifest.json
 *   {prefix}{scheduleId}/_manifests/dt={windowEnd}/_lease.json, runs/{runId}.json
 *   {prefix}{scheduleId}/_staging/dt={windowEnd}/{runId}/{reportId}/{format}/…   before a commit
 */
import { FORMATS, type Format, isFormat } from './formats';

const DATE = String.raw`\d{4}-\d{2}-\d{2}`;

export function reportPrefix(prefix: string, scheduleId: string, reportId: string): string {
  return `${prefix}${scheduleId}/${reportId}/`;
}

/** The folder of a format's files of all windows (the catalog table's location). */
export function formatPrefix(prefix: string, scheduleId: string, reportId: string, format: Format): string {
  return `${reportPrefix(prefix, scheduleId, reportId)}${format}/`;
}

/**
 * The partition column of every table and dataset (`…/dt=2026-11-22/`). Readers with hive
 * partitioning add it as a column, so no data column may be named so (`model.ts` RESERVED_NAMES).
 */
export const PARTITION_KEY = 'dt';

export function partitionPrefix(
  prefix: string,
  scheduleId: string,
  reportId: string,
  format: Format,
  windowEnd: string,
): string {
  return `${formatPrefix(prefix, scheduleId, reportId, format)}${PARTITION_KEY}=${windowEnd}/`;
}

export function partKey(folder: string, format: Format, index: number): string {
  return `${folder}part-${String(index).padStart(5, '0')}.${FORMATS[format].extension}`;
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

/**
 * The workflow's scratch space (AWS only): a run's task list, which the Distributed Map reads, and
 * the Map's results, which Step Functions writes and Finalize reads back. Outside every schedule's
 * folder (`_` never starts a schedule id), so no table or downstream listing sees it; Finalize removes
 * a run's objects once it has read them.
 */
export function workflowPrefix(prefix: string): string {
  return `${prefix}_workflow/`;
}

export function runTasksKey(prefix: string, runId: string): string {
  return `${workflowPrefix(prefix)}tasks/${runId}.json`;
}

/** The Map's ResultWriter prefix; Step Functions adds `/{mapRunId}/manifest.json` and result files. */
export function mapResultsPrefix(prefix: string): string {
  return `${workflowPrefix(prefix)}results`;
}

/** Where the versions of a report's column model live. */
export function modelPrefix(prefix: string, scheduleId: string, reportId: string): string {
  return `${reportPrefix(prefix, scheduleId, reportId)}_model/`;
}

export function modelKey(prefix: string, scheduleId: string, reportId: string, version: number): string {
  return `${modelPrefix(prefix, scheduleId, reportId)}v${String(version).padStart(6, '0')}.json`;
}

/** The version of a model key (any prefix), or null when the key is not one. */
export function modelVersionOf(key: string): number | null {
  const m = /\/_model\/v(\d{6,})\.json$/.exec(key);
  return m?.[1] === undefined ? null : Number(m[1]);
}

/** The window end of a manifest key (any prefix), or null when the key is not a manifest. */
export function manifestWindowEnd(key: string): string | null {
  return new RegExp(String.raw`(?:^|/)_manifests/dt=(${DATE})/manifest\.json$`).exec(key)?.[1] ?? null;
}

export interface PartKeyParts {
  readonly reportId: string;
  readonly format: Format;
  readonly windowEnd: string;
  /** `part-00000.csv` */
  readonly fileName: string;
  readonly index: number;
}

/** The parts of a data-part key (any prefix), or null when the key is not one. */
export function parsePartKey(key: string): PartKeyParts | null {
  const m = new RegExp(String.raw`(?:^|/)([^/]+)/([^/]+)/dt=(${DATE})/(part-(\d{5,})\.[^/]+)$`).exec(key);
  const [, reportId, format, windowEnd, fileName, index] = m ?? [];
  if (!reportId || !format || !windowEnd || !fileName || !index || !isFormat(format)) return null;
  if (fileName !== `part-${index}.${FORMATS[format].extension}`) return null;
  return { reportId, format, windowEnd, fileName, index: Number(index) };
}

/** The folder of a window's manifest, its lease and its runs' records. */
export function windowFolder(prefix: string, scheduleId: string, windowEnd: string): string {
  return `${manifestsPrefix(prefix, scheduleId)}dt=${windowEnd}/`;
}

/** The window's lease: held by the one run writing the window (see `core/commit/lease.ts`). */
export function leaseKey(prefix: string, scheduleId: string, windowEnd: string): string {
  return `${windowFolder(prefix, scheduleId, windowEnd)}_lease.json`;
}

/**
 * The window's figures as the last email that showed them said them (kept beside its manifest), so a
 * restatement is told once, by the first email after it, whichever run committed it.
 */
export function emailedKey(prefix: string, scheduleId: string, windowEnd: string): string {
  return `${windowFolder(prefix, scheduleId, windowEnd)}emailed.json`;
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
