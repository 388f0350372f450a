/**
 * The handlers' CloudWatch metrics (Powertools EMF), under the names `./metric-names` owns for both
 * the handlers and the dashboard and alarms in `infra/constructs/monitoring.ts`. They are flushed by
 * the Powertools middleware of `lambdaHandler` when the invocation ends.
 */
import type { Manifest } from '#core/manifest';
import type { ExportStepResult } from '#core/run/types';
import { METRIC } from './metric-names';
import { MetricUnit, metrics } from './wiring';

/**
 * One Export step: rows, pages and API retries of this step alone (the counts the core returns with
 * the step's result), its duration, continue/failed.
 */
export function recordStep(result: ExportStepResult, durationMs: number): void {
  metrics.addMetric(METRIC.rows, MetricUnit.Count, result.step.rows);
  metrics.addMetric(METRIC.pages, MetricUnit.Count, result.step.pages);
  metrics.addMetric(METRIC.retries, MetricUnit.Count, result.step.retries);
  metrics.addMetric(METRIC.exportDuration, MetricUnit.Milliseconds, durationMs);
  if (result.status === 'continue') metrics.addMetric(METRIC.continuations, MetricUnit.Count, 1);
  else if (result.outcome.manifest.status === 'failed')
    metrics.addMetric(METRIC.reportsFailed, MetricUnit.Count, 1);
  else
    metrics.addMetric(METRIC.reportWarnings, MetricUnit.Count, result.outcome.manifest.warnings?.length ?? 0);
}

/** One finished run: completed, not succeeded, rows exported, reports failed. */
export function recordRun(manifest: Manifest): void {
  const failed = manifest.reports.filter((r) => r.status === 'failed').length;
  metrics.addMetric(METRIC.runsCompleted, MetricUnit.Count, 1);
  metrics.addMetric(METRIC.runsNotSucceeded, MetricUnit.Count, manifest.status === 'succeeded' ? 0 : 1);
  metrics.addMetric(
    METRIC.rowsExported,
    MetricUnit.Count,
    manifest.reports.reduce((n, r) => n + r.rowCount, 0),
  );
  metrics.addMetric(METRIC.reportsFailedInRun, MetricUnit.Count, failed);
}
