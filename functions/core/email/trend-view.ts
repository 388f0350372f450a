/**
 * The over-time report as a small bar chart in date order: each bar's height relative to the highest,
 * the first and last dates under it, the peak and the total. Rendered with table cells only.
 */
import type { ReportConfig } from '../config/schema';
import type { SummaryRow } from '../export/top';
import type { ManifestReport } from '../manifest';
import { formatDay, formatRange } from './dates';
import { sameName } from './labels';
import { topColumns } from './top-columns';
import { buildTrend } from './trend';
import type { ValueFormat } from './units';

export interface TrendBar {
  /** `12 Nov` or `1–7 Nov` when a bar groups several buckets. */
  readonly when: string;
  readonly value: string;
  /** 0..1 of the highest bar; null when the bucket had no number. */
  readonly height: number | null;
}

export interface TrendView {
  /** "Likes per day". */
  readonly heading: string;
  readonly bars: readonly TrendBar[];
  readonly first: string;
  readonly last: string;
  /** The scale: the value at the top of the chart (the highest bar), with its unit; the bottom is 0. */
  readonly scaleMax: string;
  /** "Highest: 12 Nov, 3,456". */
  readonly peak: string | null;
  readonly total: string | null;
}

export function buildTrendView(
  rows: readonly SummaryRow[],
  report: ManifestReport,
  config: ReportConfig,
  label: (name: string) => string,
  fmt: (name: string) => ValueFormat,
): TrendView | null {
  // The rows' own keys (they may already be trimmed to the shown columns), else the report's columns.
  const names =
    rows.length > 0 ? [...new Set(rows.flatMap((r) => Object.keys(r)))] : report.columns.map((c) => c.name);
  const [dateColumn, metric] = topColumns(names, config);
  if (dateColumn === undefined || metric === undefined || !sameName(dateColumn, 'startDate')) return null;
  const trend = buildTrend(rows, dateColumn, metric);
  if (trend.points.length === 0) return null;
  const f = fmt(metric);
  const max = Math.max(0, ...trend.points.map((p) => p.value ?? 0));
  const grouped = trend.points.some((p) => p.start !== p.end);
  const when = (p: { start: string; end: string }) =>
    p.start === p.end ? formatDay(p.start) : formatRange(p.start, p.end, false);
  const first = trend.points[0];
  const last = trend.points.at(-1);
  return {
    heading: `${label(metric)} per ${grouped ? 'period' : 'day'}`,
    bars: trend.points.map((p) => ({
      when: when(p),
      value: p.value === null ? '—' : f.format(p.value),
      height: p.value === null ? null : max > 0 ? Math.max(0, p.value) / max : 0,
    })),
    scaleMax: f.format(max),
    first: first ? formatDay(first.start) : '',
    last: last ? formatDay(last.end) : '',
    peak:
      trend.peak && trend.peak.value !== null
        ? `Highest: ${when(trend.peak)}, ${f.format(trend.peak.value)}`
        : null,
    total: trend.total === null ? null : `Total: ${f.format(trend.total)}`,
  };
}
