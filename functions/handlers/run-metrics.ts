/**
 * The handlers' CloudWatch metrics (Powertools EMF, namespace `ReportExporter`, dimension
 * `service=report-exporter`), named as the dashboard in `infra/constructs/monitoring.ts` reads them.
 */
import type { Manifest } from '#core/manifest';
import type { ExportStepResult } from '#core/run/types';
import { MetricUnit, metrics } from './wiring';

export interface StepCounts {
  readonly rows: number;
  readonly pages: number;
  readonly retries: number;
  readonly durationMs: number;
}

/** One Export step: rows, pages and API retries of this step alone, its duration, continue/failed. */
export function recordStep(counts: StepCounts, result: ExportStepResult): void {
  metrics.addMetric('rows', MetricUnit.Count, counts.rows);
  metrics.addMetric('pages', MetricUnit.Count, counts.pages);
  metrics.addMetric('retries', MetricUnit.Count, counts.retries);
  metrics.addMetric('exportDuration', MetricUnit.Milliseconds, counts.durationMs);
  if (result.status === 'continue') metrics.addMetric('continuations', MetricUnit.Count, 1);
  else if (result.outcome.manifest.status === 'failed')
    metrics.addMetric('reportsFailed', MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
}

/** One finished run: completed, not succeeded, rows exported, reports failed. */
export function recordRun(manifest: Manifest): void {
  const failed = manifest.reports.filter((r) => r.status === 'failed').length;
  metrics.addMetric('runsCompleted', MetricUnit.Count, 1);
  metrics.addMetric('runsNotSucceeded', MetricUnit.Count, manifest.status === 'succeeded' ? 0 : 1);
  metrics.addMetric(
    'rowsExported',
    MetricUnit.Count,
    manifest.reports.reduce((n, r) => n + r.rowCount, 0),
  );
  metrics.addMetric('reportsFailedInRun', MetricUnit.Count, failed);
  metrics.publishStoredMetrics();
}
