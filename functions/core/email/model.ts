/**
 * The summary as plain data, computed once and rendered twice (HTML and text) so both parts always
 * carry the same information.
 */
import type { ReportConfig } from '../config/schema';
import type { Format } from '../export/formats';
import { DEFAULT_TOP_N } from '../export/top';
import type { ColumnType, Manifest, ManifestReport, RunStatus } from '../manifest';
import { own } from '../records';
import type { SummaryRow } from '../run/types';
import { type Kpi, kpisFor } from './deltas';
import { formatCell, truncate } from './format';
import { MAX_CELL_CHARS, topColumns } from './top-columns';
import type { SummaryInput } from './types';

export interface TopTable {
  readonly columns: readonly { readonly name: string; readonly numeric: boolean }[];
  /** Formatted, truncated, one-line cell text (not yet escaped). */
  readonly rows: readonly (readonly string[])[];
  readonly topBy: string;
}

export interface FileLine {
  readonly format: Format;
  readonly location: string;
  readonly bytes: number;
  readonly rows: number;
}

export interface ReportView {
  readonly reportId: string;
  readonly route: string;
  readonly status: 'succeeded' | 'failed';
  readonly error: string | null;
  /** Silent-loss warnings (code: message) of a report that succeeded; the data may be incomplete. */
  readonly warnings: readonly string[];
  readonly rowCount: number;
  readonly pages: number;
  readonly kpis: readonly Kpi[];
  readonly top: TopTable | null;
  readonly files: readonly FileLine[];
}

export interface SummaryView {
  readonly title: string;
  readonly scheduleId: string;
  readonly status: RunStatus;
  readonly window: Manifest['window'];
  readonly runId: string;
  readonly finishedAt: string;
  readonly hasPreviousRun: boolean;
  readonly succeeded: number;
  readonly reports: readonly ReportView[];
}

/** Builds the view of one run from the summary input (pure; no I/O). */
export function buildView(
  input: Pick<SummaryInput, 'schedule' | 'manifest' | 'previous' | 'top' | 'locate'>,
): SummaryView {
  const { schedule, manifest } = input;
  const configs = new Map(schedule.reports.map((r) => [r.id, r]));
  return {
    title: schedule.description?.trim() || schedule.id,
    scheduleId: manifest.scheduleId,
    status: manifest.status,
    window: manifest.window,
    runId: manifest.runId,
    finishedAt: manifest.finishedAt,
    hasPreviousRun: input.previous !== null,
    succeeded: manifest.reports.filter((r) => r.status === 'succeeded').length,
    reports: manifest.reports.map((report) => reportView(report, configs.get(report.reportId), input)),
  };
}

function reportView(
  report: ManifestReport,
  config: ReportConfig | undefined,
  input: Pick<SummaryInput, 'previous' | 'top' | 'locate'>,
): ReportView {
  const summary = config?.summary;
  const ok = report.status === 'succeeded';
  return {
    reportId: report.reportId,
    route: report.route,
    status: report.status,
    error: report.error,
    warnings: (report.warnings ?? []).map((w) => `${w.code}: ${w.message}`),
    rowCount: report.rowCount,
    pages: report.pages,
    kpis: ok ? kpisFor(summary?.kpis ?? [], report, input.previous) : [],
    top:
      ok && summary?.topBy
        ? topTable(
            own(input.top, report.reportId) ?? [],
            report,
            config,
            summary.topBy,
            summary.topN ?? DEFAULT_TOP_N,
          )
        : null,
    files: report.files.map((f) => ({
      format: f.format,
      location: input.locate(f.key),
      bytes: f.bytes,
      rows: f.rows,
    })),
  };
}

function topTable(
  rows: readonly SummaryRow[],
  report: ManifestReport,
  config: ReportConfig | undefined,
  topBy: string,
  topN: number,
): TopTable | null {
  if (rows.length === 0) return null;
  // top rows and the config speak of metrics by the API's names
  const types = new Map<string, ColumnType>(report.columns.map((c) => [c.apiName ?? c.name, c.type]));
  const columns = topColumns(
    rows.flatMap((r) => Object.keys(r)),
    { metrics: config?.metrics ?? [], summary: { kpis: config?.summary.kpis ?? [], topBy } },
  );
  return {
    topBy,
    columns: columns.map((name) => ({ name, numeric: isNumeric(types.get(name), rows, name) })),
    rows: rows
      .slice(0, topN)
      .map((row) =>
        columns.map((c) => truncate(formatCell(own(row, c) ?? null, types.get(c)), MAX_CELL_CHARS)),
      ),
  };
}

function isNumeric(type: ColumnType | undefined, rows: readonly SummaryRow[], column: string): boolean {
  if (type !== undefined) return type === 'int64' || type === 'double';
  return rows.some((r) => typeof own(r, column) === 'number');
}
