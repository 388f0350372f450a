/**
 * The top-N list of a ranked report, stacked so it fits any width: per row a name (and its category),
 * the `topBy` value on the right, and the other shown metrics on a line below that wraps. Columns are
 * those `emailColumns` picks; cells are one-lined, cut, and JSON arrays become readable lists.
 */
import type { ReportConfig } from '../config/schema';
import type { SummaryRow } from '../export/top';
import { DEFAULT_TOP_N } from '../export/top';
import { isAdditiveMetric } from '../export/totals';
import type { ManifestReport } from '../manifest';
import { own } from '../records';
import { formatCell, formatNumber, readableList, truncate } from './format';
import { sameName } from './labels';
import { rowNoun } from './shape';
import { MAX_CELL_CHARS, topColumns } from './top-columns';
import type { ValueFormat } from './units';

/** Metrics shown under each row besides the ranking value. */
export const MAX_DETAILS = 2;

export interface RankedRow {
  readonly name: string;
  readonly category: string | null;
  readonly value: string;
  readonly details: readonly { readonly label: string; readonly value: string }[];
}

export interface RankedList {
  /** "Top 10 creators by likes". */
  readonly heading: string;
  readonly valueLabel: string;
  readonly rows: readonly RankedRow[];
}

/** `["ins_0001","ins_0002"]` → `ins_0001, ins_0002`; other text one-lined; null → em dash. */
export function cellText(value: string | number | boolean | null): string {
  return formatCell(typeof value === 'string' ? readableList(value) : value, undefined);
}

export function buildRanked(
  rows: readonly SummaryRow[],
  report: ManifestReport,
  config: ReportConfig,
  label: (name: string) => string,
  fmt: (name: string) => ValueFormat,
  display: (column: string, value: string) => string = (_c, v) => v,
): RankedList | null {
  const topBy = config.summary.topBy;
  if (topBy === undefined || rows.length === 0) return null;
  // The rows' own keys (they may already be trimmed to the shown columns), else the report's columns.
  const names =
    rows.length > 0 ? [...new Set(rows.flatMap((r) => Object.keys(r)))] : report.columns.map((c) => c.name);
  const columns = topColumns(names, config);
  const metrics = config.metrics ?? [];
  const isMetric = (c: string) => metrics.some((m) => sameName(m, c));
  const identity = columns.filter((c) => !isMetric(c));
  const byColumn = columns.find((c) => sameName(c, topBy)) ?? topBy;
  // KPIs first, then rates and averages (only ever shown per row), then counters, two at most: a
  // row stays two lines on a phone, and every column is in the attached CSV
  const kpis = config.summary.kpis;
  const rank = (c: string) => (kpis.some((k) => sameName(k, c)) ? 0 : isAdditiveMetric(c) ? 2 : 1);
  const others = columns
    .filter((c) => isMetric(c) && c !== byColumn)
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, MAX_DETAILS);
  const show = (c: string, v: SummaryRow[string] | undefined): string =>
    typeof v === 'number'
      ? fmt(c).format(v)
      : truncate(typeof v === 'string' ? display(c, cellText(v)) : cellText(v ?? null), MAX_CELL_CHARS);
  const shown = rows.slice(0, config.summary.topN ?? DEFAULT_TOP_N);
  return {
    heading:
      report.rowCount > shown.length
        ? `Top ${shown.length} of ${formatNumber(report.rowCount, 'int64')} ${rowNoun(report.route, report.rowCount)} by ${label(topBy).toLowerCase()}`
        : `Top ${shown.length} ${rowNoun(report.route, shown.length)} by ${label(topBy).toLowerCase()}`,
    valueLabel: label(topBy),
    rows: shown.map((row) => ({
      name: identity[0] === undefined ? '—' : show(identity[0], own(row, identity[0])),
      category: identity[1] === undefined ? null : show(identity[1], own(row, identity[1])),
      value: show(byColumn, own(row, byColumn)),
      details: others.map((c) => ({ label: label(c), value: show(c, own(row, c)) })),
    })),
  };
}
