/**
 * The run manifest (docs/export.md, "Manifest"): written last, read by downstream jobs and by the next run's email
 * (for deltas). One zod schema; the type is derived from it.
 */
import * as z from 'zod/mini';
import { FORMAT_IDS } from './export/formats';
import { keyedRecord } from './keyed-record';

/** Column types of the model; `timestamp` is an ISO date-time with a zone (Parquet TIMESTAMP MICROS, UTC). */
export const COLUMN_TYPES = ['string', 'int64', 'double', 'date', 'timestamp', 'boolean'] as const;
export const ColumnTypeSchema = z.enum(COLUMN_TYPES);
export type ColumnType = z.infer<typeof ColumnTypeSchema>;

/**
 * A metric's total: a JSON number when it is exactly the sum, else the exact sum as decimal text
 * (`"270215978242064790"`) — a JSON number beyond 2^53 would be rounded by most JSON parsers.
 */
export const TotalValueSchema = z.union([z.number(), z.string().check(z.regex(/^-?\d+(?:\.\d+)?$/))]);
/**
 * A total as the manifest holds it: a JSON number when that number is exactly the sum (an integer
 * within ±(2^53 − 1), or a decimal of at most 15 significant digits in the normal range), otherwise the exact sum as a
 * decimal string (`"270215978242064790"`, `"0.1000000000000000055"`).
 */
export type TotalValue = z.infer<typeof TotalValueSchema>;

/** A total as a JavaScript number, for display and arithmetic (exact up to 2^53 / 15 digits). */
export function totalNumber(value: TotalValue): number {
  return typeof value === 'number' ? value : Number(value);
}

export const ManifestFileSchema = z.object({
  format: z.enum(FORMAT_IDS),
  key: z.string(),
  bytes: z.int().check(z.nonnegative()),
  rows: z.int().check(z.nonnegative()),
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  /** How many of the report's columns (a prefix, in order) this file carries. */
  columns: z.optional(z.int().check(z.nonnegative())),
});
export type ManifestFile = z.infer<typeof ManifestFileSchema>;

export const ReportStatusSchema = z.enum(['succeeded', 'failed']);

/**
 * Something an operator should know about a report that did not fail it: a stable UPPER_SNAKE `code`
 * and a plain, secret-free message that says what to do (manifest, log, operators' email, metric).
 */
export interface ReportWarning {
  readonly code: string;
  readonly message: string;
  readonly column?: string;
  readonly count?: number;
}

export const ReportWarningSchema = z.object({
  code: z.string(),
  message: z.string(),
  column: z.optional(z.string()),
  count: z.optional(z.number()),
});

export const ManifestReportSchema = z.object({
  reportId: z.string(),
  route: z.string(),
  status: ReportStatusSchema,
  rowCount: z.int().check(z.nonnegative()),
  pages: z.int().check(z.nonnegative()),
  /** The report's column model: file order, names, types, and the API's name of each column. */
  columns: z.array(
    z.object({ name: z.string(), type: ColumnTypeSchema, apiName: z.optional(z.nullable(z.string())) }),
  ),
  /**
   * Exact sums of additive counters only; averages, rates, ratios, reach/frequency and ROI are absent,
   * and so is a metric null (or absent) in every row.
   */
  totals: keyedRecord(TotalValueSchema),
  /**
   * The average per row of each metric that is never summed (rates, averages, reach, ROI), over the
   * rows that had a number; absent for a metric null in every row (and in manifests of older versions).
   */
  means: z.optional(keyedRecord(z.object({ mean: z.number(), rows: z.int().check(z.nonnegative()) }))),
  /** Plain words, secret-free; null when succeeded. */
  error: z.nullable(z.string()),
  /** The stable code of `error` (`AUTH_REJECTED`, `API_FORBIDDEN` …), for operators; absent when succeeded. */
  errorCode: z.optional(z.string()),
  files: z.array(ManifestFileSchema),
  /** Present when a silent-loss guard fired: the report succeeded, but its data may be incomplete. */
  warnings: z.optional(z.array(ReportWarningSchema)),
  /**
   * Present when the report failed with a 400 that named the valid metric names: that set, so that
   * `validate --manifest` can suggest the right name for a misspelled one.
   */
  validMetrics: z.optional(z.array(z.string())),
});
export type ManifestReport = z.infer<typeof ManifestReportSchema>;

export const RunStatusSchema = z.enum(['succeeded', 'partial', 'failed']);
export type RunStatus = z.infer<typeof RunStatusSchema>;

export const WindowSchema = z.object({
  start: z.iso.date(),
  end: z.iso.date(),
  timezone: z.string(),
});
export type Window = z.infer<typeof WindowSchema>;

/** A number before and after a lookback re-export; null where there was none (no earlier export, failed). */
const BeforeAfterSchema = z.object({ before: z.nullable(z.number()), after: z.nullable(z.number()) });
/** A total before and after a lookback re-export (each exact, as in `totals`). */
const TotalBeforeAfterSchema = z.object({
  before: z.nullable(TotalValueSchema),
  after: z.nullable(TotalValueSchema),
});
export type TotalBeforeAfter = z.infer<typeof TotalBeforeAfterSchema>;

/** One report of an earlier window as this run's lookback re-exported it. */
export const RestatedReportSchema = z.object({
  reportId: z.string(),
  status: ReportStatusSchema,
  rows: BeforeAfterSchema,
  /** Every total of either export, keyed by metric. */
  totals: keyedRecord(TotalBeforeAfterSchema),
  /** Why the re-export failed (the earlier export then stands); null when it succeeded. */
  error: z.nullable(z.string()),
});
export type RestatedReport = z.infer<typeof RestatedReportSchema>;

/** An earlier window re-exported by this run (lookback), with where its updated manifest is. */
export const RestatedWindowSchema = z.object({
  window: WindowSchema,
  manifestKey: z.string(),
  reports: z.array(RestatedReportSchema),
});
export type RestatedWindow = z.infer<typeof RestatedWindowSchema>;

/** One run that wrote a window's reports: its first export, then each lookback re-export. */
export const ManifestHistoryEntrySchema = z.object({
  runId: z.string(),
  scheduledTime: z.string(),
  finishedAt: z.string(),
  kind: z.enum(['export', 'restatement']),
  reports: z.array(
    z.object({ reportId: z.string(), status: ReportStatusSchema, rowCount: z.int().check(z.nonnegative()) }),
  ),
});
export type ManifestHistoryEntry = z.infer<typeof ManifestHistoryEntrySchema>;

export const ManifestSchema = z.object({
  manifestVersion: z.literal(1),
  scheduleId: z.string(),
  runId: z.string(),
  scheduledTime: z.string(),
  window: WindowSchema,
  startedAt: z.string(),
  finishedAt: z.string(),
  status: RunStatusSchema,
  reports: z.array(ManifestReportSchema),
  /** The earlier windows this run re-exported (lookback), newest first; absent without lookback. */
  restated: z.optional(z.array(RestatedWindowSchema)),
  /** Every run that wrote this window, oldest first; present once a lookback re-exported it. */
  history: z.optional(z.array(ManifestHistoryEntrySchema)),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/** succeeded when every report did, failed when none did, partial otherwise. */
export function runStatus(reports: readonly Pick<ManifestReport, 'status'>[]): RunStatus {
  const ok = reports.filter((r) => r.status === 'succeeded').length;
  if (ok === reports.length) return 'succeeded';
  return ok === 0 ? 'failed' : 'partial';
}
