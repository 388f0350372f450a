/**
 * Export Lambda: one step of one report. Returns `continue` with a checkpoint when the Lambda's time
 * runs low (the workflow calls it again with that checkpoint), or `done` with the report's outcome.
 */
import { exportReportStep } from '#core/run/export-step';
import type { ExportStepResult } from '#core/run/types';
import * as api from './api';
import * as io from './io';
import { ExportInputSchema } from './payloads';
import * as w from './wiring';

export const handler = async (event: unknown, context: w.LambdaContext): Promise<ExportStepResult> => {
  const { task, checkpoint } = ExportInputSchema.parse(event);
  const config = w.runtimeConfig();
  w.logger.appendKeys({ scheduleId: task.scheduleId, runId: task.runId, reportId: task.reportId });
  const started = Date.now();
  const retriesBefore = api.apiCounters.retries;
  const from = { pages: Number(checkpoint?.pages ?? 0), rows: Number(checkpoint?.rows ?? 0) };
  let last = from;
  const margin = io.safetyMarginMs();
  const result = await exportReportStep(config, task, checkpoint ?? null, {
    api: api.apiClient(config),
    sink: io.exportSink(),
    log: w.log,
    now: () => new Date(),
    timeLeftMs: () => context.getRemainingTimeInMillis(),
    onProgress: (p) => {
      last = { pages: p.pages, rows: p.rows };
    },
    ...(margin !== undefined ? { tuning: { safetyMarginMs: margin } } : {}),
  });
  w.metrics.addMetric('rows', w.MetricUnit.Count, last.rows - from.rows);
  w.metrics.addMetric('pages', w.MetricUnit.Count, last.pages - from.pages);
  w.metrics.addMetric('retries', w.MetricUnit.Count, api.apiCounters.retries - retriesBefore);
  w.metrics.addMetric('exportDuration', w.MetricUnit.Milliseconds, Date.now() - started);
  if (result.status === 'continue') w.metrics.addMetric('continuations', w.MetricUnit.Count, 1);
  else if (result.outcome.manifest.status === 'failed')
    w.metrics.addMetric('reportsFailed', w.MetricUnit.Count, 1);
  w.metrics.publishStoredMetrics();
  return result;
};
