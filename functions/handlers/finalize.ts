/**
 * Finalize Lambda: outcomes (a caught failure becomes a `failed` row) → manifest (written last) →
 * summary email → `Report Export Completed` event naming the manifest's location and status.
 */
import { finalizeRun } from '#core/run/finalize';
import { completedDetail, publishCompleted } from './completed-event';
import { exportSink, summaryMailer } from './io';
import { FinalizeInputSchema, toOutcomes } from './payloads';
import { recordRun } from './run-metrics';
import { log, logger, requiredEnv, runtimeConfig } from './wiring';

export interface FinalizeOutput {
  readonly manifestKey: string;
  readonly manifestLocation: string;
  readonly status: string;
  readonly emailed: number;
}

export const handler = async (event: unknown): Promise<FinalizeOutput> => {
  const input = FinalizeInputSchema.parse(event);
  const config = runtimeConfig();
  logger.appendKeys({ scheduleId: input.plan.scheduleId, runId: input.plan.runId });
  const sink = exportSink();
  const { manifest, manifestKey, emailed } = await finalizeRun(
    config,
    input.plan,
    toOutcomes(config, input),
    {
      sink,
      mailer: summaryMailer(config),
      log,
      now: () => new Date(),
    },
  );
  await publishCompleted(completedDetail(manifest, requiredEnv('BUCKET_NAME'), manifestKey));
  recordRun(manifest);
  return { manifestKey, manifestLocation: sink.locate(manifestKey), status: manifest.status, emailed };
};
