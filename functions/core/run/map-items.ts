/**
 * The Distributed Map's S3 side. A run with lookback has one task per (window, report) — 28 windows ×
 * 20 reports are 560 tasks, and their results carry top-N rows — far past what a state payload
 * (256 KB) or an inline Map holds. So Plan writes the task list to S3 (the Map's ItemReader reads
 * it), Step Functions writes each child execution's result to S3 (ResultWriter), and Finalize reads
 * them back here. Only small references pass through the state.
 *
 * ResultWriter's layout (Transformation NONE): `{prefix}/{mapRunId}/manifest.json` lists result files
 * by status (`ResultFiles.SUCCEEDED|FAILED|PENDING: [{Key, Size}]`); each file is a JSON array of child
 * executions with `Input` and, when succeeded, `Output` as JSON text, or `Error` and `Cause`.
 */
import * as z from 'zod/mini';
import type { Sink } from '../sink';
import { type MapResult, MapResultSchema } from './map-results';
import { type ReportTask, ReportTaskSchema } from './types';

const decode = (body: Uint8Array) => new TextDecoder().decode(body);

/** Writes the plan's tasks where the Map's ItemReader reads them. */
export async function writeTasks(sink: Sink, key: string, tasks: readonly ReportTask[]): Promise<void> {
  await sink.putObject(key, JSON.stringify(tasks), 'application/json');
}

/** The task list Plan wrote. */
export async function readTasks(sink: Sink, key: string): Promise<ReportTask[]> {
  const body = await sink.getObject(key);
  if (!body) throw new Error(`the run's task list ${key} is missing`);
  return z.array(ReportTaskSchema).parse(JSON.parse(decode(body)));
}

const ResultFileSchema = z.object({ Key: z.string() });
const ResultManifestSchema = z.object({
  ResultFiles: z.object({
    SUCCEEDED: z.optional(z.array(ResultFileSchema)),
    FAILED: z.optional(z.array(ResultFileSchema)),
    PENDING: z.optional(z.array(ResultFileSchema)),
  }),
});
const ChildExecutionSchema = z.object({
  Input: z.optional(z.string()),
  Output: z.optional(z.nullable(z.string())),
  Error: z.optional(z.nullable(z.string())),
  Cause: z.optional(z.nullable(z.string())),
  Status: z.optional(z.string()),
});
const ChildInputSchema = z.object({ task: ReportTaskSchema });

/** What the Map produced for each task, read back from S3, plus the keys it read (to remove them). */
export async function readMapResults(
  sink: Sink,
  manifestKey: string,
): Promise<{ results: MapResult[]; keys: string[] }> {
  const body = await sink.getObject(manifestKey);
  if (!body) throw new Error(`the Map's result manifest ${manifestKey} is missing`);
  const files = ResultManifestSchema.parse(JSON.parse(decode(body))).ResultFiles;
  const results: MapResult[] = [];
  const keys = [manifestKey];
  for (const [status, list] of Object.entries(files)) {
    for (const { Key } of list ?? []) {
      keys.push(Key);
      const text = await sink.getObject(Key);
      if (!text) throw new Error(`the Map's result file ${Key} is missing`);
      for (const child of z.array(ChildExecutionSchema).parse(JSON.parse(decode(text)))) {
        const result = childResult(status, child);
        if (result) results.push(result);
      }
    }
  }
  return { results, keys };
}

/** A child execution → its outcome (or caught failure); a failed or unstarted one → a failure. */
function childResult(status: string, child: z.infer<typeof ChildExecutionSchema>): MapResult | null {
  if (status === 'SUCCEEDED' && child.Output) return MapResultSchema.parse(JSON.parse(child.Output));
  const input = child.Input ? ChildInputSchema.safeParse(JSON.parse(child.Input)) : null;
  if (!input?.success) return null; // no task to name: Finalize reports the task as without a result
  const { reportId, window } = input.data.task;
  const error =
    status === 'PENDING'
      ? { Error: 'States.NotRun', Cause: 'the Map stopped before this report was exported' }
      : { Error: child.Error ?? 'States.TaskFailed', Cause: child.Cause ?? '' };
  return { failed: { reportId, window, error: JSON.stringify(error) } };
}
