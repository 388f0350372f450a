/**
 * Finalize Lambda: the task list and the Map's results from S3 → outcomes (a caught failure, or a task
 * without a result, becomes a `failed` row) → manifests (restated windows', then this run's, last) →
 * summary email → `Report Export Completed` event naming the manifest's location, status and the
 * restated windows (sent even when only the email failed; the run then still fails and alarms). The
 * run's scratch objects in S3 (task list, Map results) are removed last.
 */
import { manifestKey } from '#core/export/keys';
import { finalizeRun } from '#core/run/finalize';
import { finalizeAndAnnounce } from './completed-event';
import { finalizeEnv } from './env';
import { exportSink, summaryMailer } from './io';
import { readMapResults, readTasks } from './map-items';
import { FinalizeInputSchema, toOutcomes } from './payloads';
import { recordRun } from './run-metrics';
import { lambdaHandler, log, logger, runtimeConfig } from './wiring';

export interface FinalizeOutput {
  readonly manifestKey: string;
  readonly manifestLocation: string;
  readonly status: string;
  readonly emailed: number;
}

export const handler = lambdaHandler(
  async (event: unknown): Promise<FinalizeOutput> => {
    const { plan: planned, results } = FinalizeInputSchema.parse(event);
    const config = runtimeConfig();
    logger.appendKeys({ scheduleId: planned.scheduleId, runId: planned.runId });
    const env = finalizeEnv();
    const sink = exportSink(env.BUCKET_NAME);
    const { items, taskCount, ...rest } = planned;
    const plan = { ...rest, tasks: await readTasks(sink, items.key) };
    if (plan.tasks.length !== taskCount) {
      throw new Error(`the run's task list holds ${plan.tasks.length} tasks, the plan made ${taskCount}`);
    }
    // The Map failed as a whole: every task is reported failed, with the Map's error.
    const read =
      'error' in results
        ? { results: [], keys: [] }
        : await readMapResults(sink, results.ResultWriterDetails.Key);
    const noResult = 'error' in results ? results.error : undefined;
    const deps = { sink, mailer: summaryMailer(config), log, now: () => new Date() };
    const key = manifestKey(config.output.prefix, plan.scheduleId, plan.window.end);
    const { manifest, emailed } = await finalizeAndAnnounce(
      () => finalizeRun(config, plan, toOutcomes(config, plan, read.results, noResult), deps),
      sink,
      { bucket: env.BUCKET_NAME, eventBus: env.EVENT_BUS_NAME },
      key,
    );
    recordRun(manifest);
    // After the manifest, email and event: a failure here fails the execution (and alarms) with the
    // run's data complete, rather than leaving scratch objects behind unnoticed.
    await sink.deleteObjects([items.key, ...read.keys]);
    return { manifestKey: key, manifestLocation: sink.locate(key), status: manifest.status, emailed };
  },
  { metrics: true },
);
