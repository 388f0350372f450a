/**
 * Finalize Lambda: outcomes (a caught failure becomes a `failed` row) → manifest (written last) →
 * summary email → `Report Export Completed` event naming the manifest's location and status.
 */
import { finalizeRun } from '#core/run/finalize';
import { completedDetail, publishCompleted } from './completed-event';
import * as io from './io';
import { FinalizeInputSchema, toOutcomes } from './payloads';
import * as w from './wiring';

export interface FinalizeOutput {
  readonly manifestKey: string;
  readonly manifestLocation: string;
  readonly status: string;
  readonly emailed: number;
}

export const handler = async (event: unknown): Promise<FinalizeOutput> => {
  const input = FinalizeInputSchema.parse(event);
  const config = w.runtimeConfig();
  w.logger.appendKeys({ scheduleId: input.plan.scheduleId, runId: input.plan.runId });
  const sink = io.exportSink();
  const result = await finalizeRun(config, input.plan, toOutcomes(config, input), {
    sink,
    mailer: io.summaryMailer(config),
    log: w.log,
    now: () => new Date(),
  });
  const { manifest, manifestKey } = result;
  await publishCompleted(completedDetail(manifest, process.env.BUCKET_NAME ?? '', manifestKey));
  const failed = manifest.reports.filter((r) => r.status === 'failed').length;
  w.metrics.addMetric('runsCompleted', w.MetricUnit.Count, 1);
  w.metrics.addMetric('runsNotSucceeded', w.MetricUnit.Count, manifest.status === 'succeeded' ? 0 : 1);
  w.metrics.addMetric(
    'rowsExported',
    w.MetricUnit.Count,
    manifest.reports.reduce((n, r) => n + r.rowCount, 0),
  );
  w.metrics.addMetric('reportsFailedInRun', w.MetricUnit.Count, failed);
  w.metrics.publishStoredMetrics();
  const status = manifest.status;
  return { manifestKey, manifestLocation: sink.locate(manifestKey), status, emailed: result.emailed };
};
