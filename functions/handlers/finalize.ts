/**
 * Finalize Lambda: outcomes (a caught failure becomes a `failed` row) → manifest (written last) →
 * summary emails (recipient lists named `ssm:/path` are read now) → `Report Export Completed` event naming the manifest's location and status (sent
 * even when only the email failed; the run then still fails and alarms).
 */

import { createGlueCatalog } from '#adapters/glue-catalog';
import { createSsmParameterReader } from '#adapters/ssm-parameters';
import type { Config } from '#core/config/schema';
import { describeError } from '#core/errors';
import { manifestKey } from '#core/export/keys';
import type { Manifest } from '#core/manifest';
import { syncCatalog } from '#core/run/catalog-sync';
import { finalizeRun } from '#core/run/finalize';
import type { Sink } from '#core/sink';
import { finalizeAndAnnounce } from './completed-event';
import { finalizeEnv } from './env';
import { exportSink, summaryMailer } from './io';
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
    const { plan, ...rest } = FinalizeInputSchema.parse(event);
    const config = runtimeConfig();
    logger.appendKeys({ scheduleId: plan.scheduleId, runId: plan.runId });
    const env = finalizeEnv();
    const sink = exportSink(env.BUCKET_NAME);
    const deps = { sink, mailer: summaryMailer(config), readParameter, log, now: () => new Date() };
    const key = manifestKey(config.output.prefix, plan.scheduleId, plan.window.end);
    let runRecordKey = '';
    const { manifest, emailed } = await finalizeAndAnnounce(
      async () => {
        const result = await finalizeRun(config, plan, toOutcomes(config, { plan, ...rest }), deps);
        runRecordKey = result.runRecordKey;
        return result;
      },
      sink,
      { bucket: env.BUCKET_NAME, eventBus: env.EVENT_BUS_NAME },
      key,
    );
    recordRun(manifest);
    if (env.GLUE_DATABASE !== undefined) await syncTables(config, manifest, sink, env.GLUE_DATABASE);
    return {
      manifestKey: key,
      runRecordKey,
      manifestLocation: sink.locate(key),
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
    log.info('catalog updated', { tables: synced.updated.join(',') || 'none' });
    if (synced.missing.length > 0) log.warn('catalog tables missing', { tables: synced.missing.join(',') });
  } catch (err: unknown) {
    log.error('catalog update failed', { error: describeError(err) });
    throw err;
  }
}
