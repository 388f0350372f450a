/**
 * The Step Functions payloads the Plan and Export handlers accept (one zod schema per input surface).
 * Plan takes the Scheduler's input and returns the plan without its tasks, which it wrote to S3
 * (`items`); Export takes a task and the checkpoint of the previous step (absent on the first call),
 * and on its first call the plan's credentials preflight.
 * Finalize's input is the workflow's own shape: `FinalizeInputSchema` in `#core/run/map-results`.
 */
import * as z from 'zod/mini';
import { CredentialsCheckSchema } from '#core/run/credentials-check';
import { ExportCheckpointSchema, ReportTaskSchema, RunRequestSchema } from '#core/run/types';

export const PlanInputSchema = RunRequestSchema;

export const ExportInputSchema = z.object({
  task: ReportTaskSchema,
  checkpoint: z.nullish(ExportCheckpointSchema),
  /** The plan's credentials preflight, handed to a task's first step by the Map's ItemSelector. */
  credentials: z.optional(CredentialsCheckSchema),
});
