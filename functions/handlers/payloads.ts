/**
 * The Step Functions payloads the Plan and Export handlers accept (one zod schema per input surface).
 * Plan takes the Scheduler's input and returns the plan without its tasks, which it wrote to S3
 * (`items`); Export takes a task and the checkpoint of the previous step (absent on the first call).
 * Finalize's input is the workflow's own shape: `FinalizeInputSchema` in `#core/run/map-results`.
 */
import * as z from 'zod/mini';
import { ExportCheckpointSchema, ReportTaskSchema, RunRequestSchema } from '#core/run/types';

export const PlanInputSchema = RunRequestSchema;

export const ExportInputSchema = z.object({
  task: ReportTaskSchema,
  checkpoint: z.nullish(ExportCheckpointSchema),
});
