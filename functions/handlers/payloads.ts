/**
 * The Step Functions payloads the handlers accept (one zod schema per input surface). Plan takes the
 * Scheduler's input; Export takes a task and the checkpoint of the previous step (absent on the first
 * call); Finalize takes the plan and the Map's results, where a report whose Export step failed
 * outright arrives as `{ failed: { reportId, error } }` (built by the Map's Catch) instead of an outcome.
 */
import * as z from 'zod/mini';
import type { Config } from '#core/config/schema';
import type { ReportOutcome } from '#core/run/types';
import {
  ExportCheckpointSchema,
  ReportOutcomeSchema,
  ReportTaskSchema,
  RunPlanSchema,
  RunRequestSchema,
} from '#core/run/types';

export const PlanInputSchema = RunRequestSchema;

export const ExportInputSchema = z.object({
  task: ReportTaskSchema,
  checkpoint: z.nullish(ExportCheckpointSchema),
});

/** What the Map's Catch passes on: the report id and the caught error as JSON text. */
export const FailedReportSchema = z.object({
  failed: z.object({ reportId: z.string(), error: z.string() }),
});

export const FinalizeInputSchema = z.object({
  plan: RunPlanSchema,
  outcomes: z.array(z.union([ReportOutcomeSchema, FailedReportSchema])),
});
export type FinalizeInput = z.infer<typeof FinalizeInputSchema>;

/** A caught error `{"Error","Cause"}` → a short plain reason (the Lambda's errorMessage, no stack). */
export function reasonOf(errorJson: string): string {
  let reason = 'the export step failed';
  try {
    const caught = JSON.parse(errorJson) as { Error?: unknown; Cause?: unknown };
    reason = typeof caught.Error === 'string' ? caught.Error : reason;
    if (typeof caught.Cause === 'string') {
      const cause = JSON.parse(caught.Cause) as { errorMessage?: unknown };
      if (typeof cause.errorMessage === 'string') reason = `${reason}: ${cause.errorMessage}`;
    }
  } catch {
    // a Cause that is not JSON (States.Timeout, States.TaskFailed) keeps the error name alone
  }
  return reason.replace(/\s+/g, ' ').slice(0, 500);
}

/** Why a planned report has no result at all: the Map's results together passed 256 KB. */
export const RESULTS_LOST =
  "its result did not reach Finalize: the run's results together passed Step Functions' 256 KB payload limit (States.DataLimitExceeded); its files may be complete but are not recorded — re-run the window, and lower summary.topN or split the schedule";

/**
 * The Map's results → outcomes, a caught failure becoming a `failed` row with its reason, and a
 * planned report with no result (the Map's results were too large to pass on) a `failed` row too.
 */
export function toOutcomes(config: Config, input: FinalizeInput): ReportOutcome[] {
  const schedule = config.schedules.find((s) => s.id === input.plan.scheduleId);
  const failedRow = (reportId: string, error: string): ReportOutcome => ({
    manifest: {
      reportId,
      route: schedule?.reports.find((r) => r.id === reportId)?.route ?? 'unknown',
      status: 'failed',
      rowCount: 0,
      pages: 0,
      columns: [],
      totals: {},
      error,
      files: [],
    },
    top: [],
  });
  const outcomes = input.outcomes.map((o) =>
    'failed' in o ? failedRow(o.failed.reportId, reasonOf(o.failed.error)) : o,
  );
  const present = new Set(outcomes.map((o) => o.manifest.reportId));
  const lost = input.plan.tasks.filter((t) => !present.has(t.reportId));
  return [...outcomes, ...lost.map((t) => failedRow(t.reportId, RESULTS_LOST))];
}
