/**
 * The Step Functions payloads the handlers accept (one zod schema per input surface). Plan takes the
 * Scheduler's input; Export takes a task and the checkpoint of the previous step (absent on the first
 * call); Finalize takes the plan and the Map's results, where a report whose Export step failed
 * outright arrives as `{ failed: { reportId, error } }` (built by the Map's Catch) instead of an outcome.
 */
import * as z from 'zod/mini';
import type { Config } from '#core/config/schema';
import { WindowSchema } from '#core/manifest';
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
  failed: z.object({ reportId: z.string(), window: z.optional(WindowSchema), error: z.string() }),
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

/** The Map's results → outcomes, a caught failure becoming a `failed` row with its reason. */
export function toOutcomes(config: Config, input: FinalizeInput): ReportOutcome[] {
  const schedule = config.schedules.find((s) => s.id === input.plan.scheduleId);
  return input.outcomes.map((o) => {
    if (!('failed' in o)) return o;
    const route = schedule?.reports.find((r) => r.id === o.failed.reportId)?.route ?? 'unknown';
    return {
      ...(o.failed.window ? { window: o.failed.window } : {}),
      manifest: {
        reportId: o.failed.reportId,
        route,
        status: 'failed',
        rowCount: 0,
        pages: 0,
        columns: [],
        totals: {},
        error: reasonOf(o.failed.error),
        files: [],
      },
      top: [],
    };
  });
}
