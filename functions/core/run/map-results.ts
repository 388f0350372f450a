/**
 * What the workflow hands Finalize: the plan as it passed through the state (its tasks in S3 at
 * `items`), and the Distributed Map's results (written to S3) or the Map's own failure; and how those
 * results become one outcome per task. A report whose Export step failed outright arrives as
 * `{ failed: { reportId, window, error } }` (built by the Map's Catch) instead of an outcome.
 */
import * as z from 'zod/mini';
import type { Config } from '../config/schema';
import { WindowSchema } from '../manifest';
import { CredentialsCheckSchema } from './credentials-check';
import { failedEntry } from './failed-entry';
import {
  type ReportOutcome,
  ReportOutcomeSchema,
  type ReportTask,
  type RunPlan,
  RunPlanSchema,
} from './types';

/** What the Map's Catch passes on: the report id and the caught error as JSON text. */
export const FailedReportSchema = z.object({
  failed: z.object({ reportId: z.string(), window: z.optional(WindowSchema), error: z.string() }),
});

/** One child execution's output: an outcome, or a failure the Map's Catch turned into a result. */
export const MapResultSchema = z.union([ReportOutcomeSchema, FailedReportSchema]);
export type MapResult = z.infer<typeof MapResultSchema>;

/** The plan as it passes through the state: its tasks are in S3 at `items`, read by the Map. */
export const PlannedRunSchema = z.extend(z.omit(RunPlanSchema, { tasks: true }), {
  items: z.object({ bucket: z.string(), key: z.string() }),
  taskCount: z.int().check(z.nonnegative()),
  /**
   * The credentials preflight's answer (./credentials-check), which the Map hands to every Export
   * task; always set by Plan (the Map's ItemSelector reads it), optional for plans of older versions.
   */
  credentials: z.optional(CredentialsCheckSchema),
});
export type PlannedRun = z.infer<typeof PlannedRunSchema>;

/** The Distributed Map's output when its ResultWriter wrote the results to S3. */
export const MapRunSchema = z.object({
  ResultWriterDetails: z.object({ Bucket: z.string(), Key: z.string() }),
});

/** The Map's Catch: the Map itself failed (`error` is the caught `{Error, Cause}` as JSON text). */
export const MapFailedSchema = z.object({ error: z.string() });

export const FinalizeInputSchema = z.object({
  plan: PlannedRunSchema,
  results: z.union([MapRunSchema, MapFailedSchema]),
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

/**
 * The Map's results → one outcome per task of the plan: a caught failure becomes a `failed` row with
 * its reason, and a task the Map returned nothing for becomes one too (no report goes unmentioned).
 */
export function toOutcomes(
  config: Config,
  plan: RunPlan,
  results: readonly MapResult[],
  /** Why a task has no result (the Map's caught error, as JSON text); a generic reason by default. */
  noResult = JSON.stringify({
    Error: 'States.NoResult',
    Cause: 'the workflow returned no result for this report',
  }),
): ReportOutcome[] {
  const schedule = config.schedules.find((s) => s.id === plan.scheduleId);
  const id = (reportId: string, end: string | undefined) => `${end ?? plan.window.end}/${reportId}`;
  const seen = new Set(
    results.map((o) =>
      'failed' in o ? id(o.failed.reportId, o.failed.window?.end) : id(o.manifest.reportId, o.window?.end),
    ),
  );
  const missing = plan.tasks
    .filter((t) => !seen.has(id(t.reportId, t.window.end)))
    .map(
      (t: ReportTask): MapResult => ({
        failed: {
          reportId: t.reportId,
          window: t.window,
          error: noResult,
        },
      }),
    );
  return [...results, ...missing].map((o) => {
    if (!('failed' in o)) return o;
    const route = schedule?.reports.find((r) => r.id === o.failed.reportId)?.route ?? 'unknown';
    return {
      ...(o.failed.window ? { window: o.failed.window } : {}),
      manifest: failedEntry(o.failed.reportId, route, reasonOf(o.failed.error)),
      top: [],
    };
  });
}
