/**
 * The one owner of the handlers' CloudWatch metric names, namespace and dimension. The handlers emit
 * them (`./run-metrics`) and the monitoring construct (`infra/constructs/monitoring.ts`) graphs and
 * alarms on them, both through this module, so a rename reaches both or fails the type-check.
 * No imports: infra reads it without pulling handler code.
 */

export const SERVICE = 'report-exporter';
export const METRICS_NAMESPACE = 'ReportExporter';
/** Powertools adds `service` as the one dimension of every metric. */
export const METRICS_DIMENSIONS = { service: SERVICE } as const;

export const METRIC = {
  /** Rows written by one Export step. */
  rows: 'rows',
  /** API pages read by one Export step. */
  pages: 'pages',
  /** API retries of one Export step. */
  retries: 'retries',
  /** Duration of one Export step, ms. */
  exportDuration: 'exportDuration',
  /** Export steps that ended with a checkpoint (the workflow continues). */
  continuations: 'continuations',
  /** Reports that ended failed, counted by the Export step. */
  reportsFailed: 'reportsFailed',
  /** Silent-loss warnings of a report that ended succeeded (the data may be incomplete). */
  reportWarnings: 'reportWarnings',
  /** Finished runs. */
  runsCompleted: 'runsCompleted',
  /** Finished runs whose status is partial or failed (1) or succeeded (0). */
  runsNotSucceeded: 'runsNotSucceeded',
  /** Rows of all reports of a finished run. */
  rowsExported: 'rowsExported',
  /** Failed reports of a finished run. */
  reportsFailedInRun: 'reportsFailedInRun',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];
