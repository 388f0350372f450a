/**
 * Finalize Lambda: outcomes (a caught failure becomes a `failed` row) → manifest (written last) →
 * summary emails (recipient lists named `ssm:/path` are read now) → `Report Export Completed` event naming the manifest's location and status (sent
 * even when only the email failed; the run then still fails and alarms).
 */
import { createSsmParameterReader } from '#adapters/ssm-parameters';
import { manifestKey } from '#core/export/keys';
import { finalizeRun } from '#core/run/finalize';
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
