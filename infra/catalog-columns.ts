/**
 * The Glue columns of a report's tables, from what is known at synth time (docs/export.md "Columns"):
 * the route's identifying fields, `window_start`, `window_end`, then the requested metrics in order.
 * Fields the server adds beyond these are still in the files; Parquet is read by name, so they are
 * simply not in the table until declared.
 *
 * Parquet types: identifying fields string (dates on the over-time route), window dates, metrics
 * `bigint` for counters and `double` for averages, rates and ratios (the same word rule as the
 * manifest's totals). CSV: every column `string` — the CSV keeps the formula guard (`'`) and writes
 * null as an empty field, neither of which OpenCSVSerde can turn into a number; cast in the query.
 */
import { ROUTE_SPECS } from '#core/config/routes';
import type { ReportConfig } from '#core/config/schema';
import { isAdditiveMetric } from '#core/export/totals';

export interface GlueColumn {
  readonly name: string;
  readonly type: string;
}

export type TableFormat = 'parquet' | 'csv';

const DATE_FIELDS = new Set(['startDate', 'endDate']);

export function reportColumns(report: ReportConfig, format: TableFormat): GlueColumn[] {
  const ids = ROUTE_SPECS[report.route].idFields;
  const cols: GlueColumn[] = [
    ...ids.map((name) => ({
      name,
      type: report.route === 'instances/performance-over-time' && DATE_FIELDS.has(name) ? 'date' : 'string',
    })),
    { name: 'window_start', type: 'date' },
    { name: 'window_end', type: 'date' },
    ...(report.metrics ?? []).map((name) => ({ name, type: isAdditiveMetric(name) ? 'bigint' : 'double' })),
  ];
  // Glue/Athena column names are case-insensitive and stored lower case; Parquet is matched by name.
  return cols.map((c) => ({ name: c.name.toLowerCase(), type: format === 'csv' ? 'string' : c.type }));
}

/** `weekly-campaigns` + `campaigns` + `parquet` → `weekly_campaigns__campaigns__parquet`. */
export function tableName(scheduleId: string, reportId: string, format: TableFormat): string {
  return `${scheduleId}__${reportId}__${format}`.replace(/-/g, '_');
}
