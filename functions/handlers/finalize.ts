/**
 * Finalize Lambda: the task list and the Map's results from S3 → outcomes (a caught failure, or a task
 * without a result, becomes a `failed` row) → manifests (restated windows', then this run's, last) →
 * summary emails (recipient lists named `ssm:/path` are read now) → `Report Export Completed` event
 * naming the manifest's location, status and the restated windows, built from the manifest
 * `finalizeRun` returns → run metrics → Glue tables → the run's scratch objects in S3 (task list, Map
 * results) removed. When only the email failed, all of that still happens, then the invocation
 * throws `EMAIL_FAILED`, so the execution fails and alarms.
 */

import { createGlueCatalog } from '#adapters/glue-catalog';
import { createSsmParameterReader } from '#adapters/ssm-parameters';
import type { Config } from '#core/config/schema';
import { describeError } from '#core/errors';
import type { Manifest } from '#core/manifest';
import { syncCatalog } from '#core/run/catalog-sync';
import { finalizeRun } from '#core/run/finalize';
import type { Sink } from '#core/sink';
import { completedDetail, publishCompleted } from './completed-event';
import { finalizeEnv } from './env';
import { exportSink, summaryMailer } from './io';
import { readMapResults, readTasks } from './map-items';
import { FinalizeInputSchema, toOutcomes } from './payloads';
import { recordRun } from './run-metrics';
import { lambdaHandler, log, logger, runtimeConfig } from './wiring';

/** `ssm:/path` recipient lists, read at send time (only Finalize carries the SSM client). */
const readParameter = createSsmParameterReader();

export interface FinalizeOutput {
  /** The window's manifest (merged with earlier runs of the window). */
  readonly manifestKey: string;
  /** This run's own record, beside the window's manifest. */
  readonly runRecordKey: string;
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
    const deps = { sink, mailer: summaryMailer(config), readParameter, log, now: () => new Date() };
    const outcomes = toOutcomes(config, plan, read.results, noResult);
    const { manifest, manifestKey, runRecordKey, emailed, emailError } = await finalizeRun(
      config,
      plan,
      outcomes,
      deps,
    );
    // From the returned manifest (this run's record): nothing is read back, also when only the email failed.
    await publishCompleted(completedDetail(manifest, env.BUCKET_NAME, manifestKey), env.EVENT_BUS_NAME);
    recordRun(manifest);
    if (env.GLUE_DATABASE !== undefined) await syncTables(config, manifest, sink, env.GLUE_DATABASE);
    // After the manifest, email, event and catalog: a failure here fails the execution (and alarms)
    // with the run's data complete, rather than leaving scratch objects behind unnoticed.
    await sink.deleteObjects([items.key, ...read.keys]);
    if (emailError) {
      // Data, manifests, event and catalog are done; the execution still fails, so the alarm fires.
      log.error('summary email not sent', { manifestKey, error: emailError.message });
      throw emailError;
    }
    return {
      manifestKey,
      runRecordKey,
      manifestLocation: sink.locate(manifestKey),
      status: manifest.status,
      emailed,
    };
  },
  { metrics: true },
);

/** After the manifest: the Glue tables follow the column models the run may have extended. */
async function syncTables(config: Config, manifest: Manifest, sink: Sink, database: string): Promise<void> {
  try {
    const synced = await syncCatalog(config, manifest, sink, createGlueCatalog(database));
    log.info('catalog updated', {
      created: synced.created.join(',') || 'none',
      updated: synced.updated.join(',') || 'none',
    });
  } catch (err: unknown) {
    log.error('catalog update failed', { error: describeError(err) });
    throw err;
  }
}
