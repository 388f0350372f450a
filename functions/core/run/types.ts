/**
 * The payloads that pass between the steps of a run: Plan → Export (looping on `continue`) → Finalize.
 * The same shapes flow through Step Functions (so they stay small: no rows except the summary's top N)
 * and through the CLI, which calls the same core functions in-process.
 */
import * as z from 'zod/mini';
import { SummaryRowSchema } from '../export/top';
import { keyedRecord } from '../keyed-record';
import { ManifestReportSchema, TotalValueSchema, WindowSchema } from '../manifest';

/** What EventBridge Scheduler (or the CLI) starts a run with. */
export const RunRequestSchema = z.object({
  scheduleId: z.string().check(z.minLength(1)),
  /** ISO-8601 instant; from Scheduler's `<aws.scheduler.scheduled-time>`. */
  scheduledTime: z.iso.datetime({ offset: true }),
  /** Limit the run to these report ids (CLI `--report`); all when absent. */
  reportIds: z.optional(z.array(z.string())),
});
export type RunRequest = z.infer<typeof RunRequestSchema>;

export const ReportTaskSchema = z.object({
  runId: z.string(),
  scheduleId: z.string(),
  reportId: z.string(),
  scheduledTime: z.string(),
  window: WindowSchema,
  /** An earlier window re-exported by lookback (its top rows are not kept: no email shows them). */
  restate: z.optional(z.boolean()),
});
export type ReportTask = z.infer<typeof ReportTaskSchema>;

export const RunPlanSchema = z.object({
  runId: z.string(),
  scheduleId: z.string(),
  scheduledTime: z.string(),
  window: WindowSchema,
  /** The windows of the schedule's `lookback` previous occurrences, newest first (empty without lookback). */
  lookback: z.array(z.object({ scheduledTime: z.string(), window: WindowSchema })),
  startedAt: z.string(),
  /** One task per (window, report): the current window's reports first, then each earlier window's. */
  tasks: z.array(ReportTaskSchema),
});
export type RunPlan = z.infer<typeof RunPlanSchema>;

/**
 * Where an interrupted report export resumes: the cursor of the next page to fetch, the next part
 * index, and everything accumulated so far (files written, totals, columns, top rows). Owned and
 * shaped by the export core; treated as opaque JSON by the workflow.
 */
export const ExportCheckpointSchema = z.record(z.string(), z.unknown());
export type ExportCheckpoint = z.infer<typeof ExportCheckpointSchema>;

const PreviousEntrySchema = z.object({
  rowCount: z.int().check(z.nonnegative()),
  totals: keyedRecord(TotalValueSchema),
});
export type PreviousEntry = z.infer<typeof PreviousEntrySchema>;

export const ReportOutcomeSchema = z.object({
  /** The window the report was exported for (absent from outcomes of older versions: the run's window). */
  window: z.optional(WindowSchema),
  manifest: ManifestReportSchema,
  /** The top N rows by the report's `summary.topBy`, largest first (empty when no topBy). */
  top: z.array(SummaryRowSchema),
  /**
   * A lookback re-export only: the report's entry in the window's manifest just before this run
   * committed (null when there was no succeeded one) — the "before" of the `restated` record.
   */
  previous: z.optional(z.nullable(PreviousEntrySchema)),
});
export type ReportOutcome = z.infer<typeof ReportOutcomeSchema>;

/** What one step did by itself (a continuation step starts at 0): for the step's metrics. */
const StepCountsSchema = z.object({
  pages: z.int().check(z.nonnegative()),
  rows: z.int().check(z.nonnegative()),
  /** API retries of this step's requests (token requests included). */
  retries: z.int().check(z.nonnegative()),
});

export const ExportStepResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('continue'),
    task: ReportTaskSchema,
    checkpoint: ExportCheckpointSchema,
    step: StepCountsSchema,
  }),
  z.object({
    status: z.literal('done'),
    task: ReportTaskSchema,
    outcome: ReportOutcomeSchema,
    step: StepCountsSchema,
  }),
]);
export type ExportStepResult = z.infer<typeof ExportStepResultSchema>;

/*
 * The core step functions (implemented in this folder) and what they take. The Lambdas, the CLI and
 * the tests wire the same functions with different dependencies:
 *
 *   planRun(config, request, deps: PlanDeps): RunPlan                               → ./plan.ts
 *   exportReportStep(config, task, checkpoint | null, deps: ExportDeps): ExportStepResult  → ./export-step.ts
 *   finalizeRun(config, plan, outcomes, deps: FinalizeDeps): FinalizeResult         → ./finalize.ts
 *   runSchedule(config, request, deps: RunDeps): FinalizeResult  (plan → exports → finalize, in-process) → ./run.ts
 */
import type { ReportingApi } from '../api/types';
import type { LeaseOptions } from '../commit/lease';
import type { Mailer, ParameterReader } from '../email/types';
import type { ExporterError } from '../errors';
import type { Encoder } from '../export/encoder';
import type { Log } from '../log';
import type { Manifest } from '../manifest';
import type { Sink } from '../sink';

export interface PlanDeps {
  readonly now: () => Date;
  readonly newRunId: () => string;
}

export interface ExportProgress {
  readonly reportId: string;
  /** Pages and rows of the whole export so far (all steps). */
  readonly pages: number;
  readonly rows: number;
  readonly done: boolean;
}

export interface ExportDeps {
  readonly api: ReportingApi;
  readonly sink: Sink;
  readonly log: Log;
  /** Milliseconds left before the step must stop and return a checkpoint (Lambda); absent = no limit. */
  readonly timeLeftMs?: () => number;
  /**
   * Milliseconds this step's API requests may still use (the invocation's remaining time less a
   * reserve, so a report fails or pauses cleanly before the Lambda times out); absent = no limit.
   */
  readonly apiDeadlineMs?: () => number;
  readonly onProgress?: (progress: ExportProgress) => void;
  /** Writer sizes and the continuation margin; defaults suit Lambda and the CLI. */
  readonly tuning?: ExportTuning;
  /** How the window's lease is held (default: the workflow's, `WORKFLOW_LEASE`). */
  readonly lease?: LeaseOptions;
  /** The clock of the lease and the manifest's times (default: the system clock). */
  readonly now?: () => Date;
  /**
   * Where row groups are encoded to Parquet/CSV. The CLI and the Export Lambda pass the worker pool
   * (`#adapters/encoder-pool`), so encoding never blocks the event loop that fetches pages; absent =
   * on the calling thread.
   */
  readonly encoder?: Encoder;
}

export interface ExportTuning {
  /** Rows per Parquet row group (and per CSV write). Default 25,000. */
  readonly rowGroupRows?: number;
  /** A part also rolls over once a format's file reaches this many bytes. Default 512 MiB. */
  readonly maxPartBytes?: number;
  /** Stop and checkpoint when `timeLeftMs()` drops below this. Default 60 s. */
  readonly safetyMarginMs?: number;
}

export interface FinalizeDeps {
  readonly sink: Sink;
  /** How the window's lease is held (default: the workflow's, `WORKFLOW_LEASE`). */
  readonly lease?: LeaseOptions;
  /** null = no email (CLI without `--send-email` / `--email-dir`). */
  readonly mailer: Mailer | null;
  /** Reads `ssm:/path` recipient lists at send time; absent = such lists fail the email. */
  readonly readParameter?: ParameterReader;
  readonly log: Log;
  readonly now: () => Date;
}

export interface FinalizeResult {
  /** The window's manifest (merged with earlier runs of the window). */
  readonly manifestKey: string;
  /** This run's own record, beside the window's manifest. */
  readonly runRecordKey: string;
  /** This run's own record: its reports as this run saw them. */
  readonly manifest: Manifest;
  /** Number of messages sent (0 when no email). */
  readonly emailed: number;
  /**
   * Why the summary email failed (`EMAIL_FAILED`), everything else being written; undefined when it
   * was sent or there was none to send. The caller reports the run, then fails (see ./finalize.ts).
   */
  readonly emailError: ExporterError | undefined;
}

export interface RunDeps extends PlanDeps, Omit<ExportDeps, 'timeLeftMs' | 'apiDeadlineMs'>, FinalizeDeps {
  readonly log: Log;
  readonly now: () => Date;
}
