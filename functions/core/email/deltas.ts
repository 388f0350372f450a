/**
 * KPI values and their change against the previous run. A KPI is a total only when the manifest holds
 * it in `totals` (additive counters); anything else (rates, averages, reach, ROI) is never summed here.
 * Names are matched spelling-blind (config KPIs use API names, totals may be keyed by snake_case).
 */

import { isAdditiveMetric } from '../export/totals';
import {
  type ColumnType,
  type Manifest,
  type ManifestReport,
  type TotalValue,
  totalNumber,
} from '../manifest';
import { own } from '../records';
import { sameName } from './labels';

export type Delta =
  /** The schedule has no earlier manifest. */
  | { readonly kind: 'no-previous-run' }
  /** There was a run, but it has no comparable value (report new, failed, or KPI not totalled then). */
  | { readonly kind: 'n/a' }
  /** The previous value was 0 and this one is not: a percentage would divide by zero. */
  | { readonly kind: 'new'; readonly change: number }
  | { readonly kind: 'change'; readonly change: number; readonly ratio: number | null };

export type Kpi =
  | {
      readonly metric: string;
      readonly kind: 'total';
      readonly value: number;
      readonly type: ColumnType;
      readonly delta: Delta;
    }
  /** Not additive: the average per row over `rows` rows (never a sum), with its change. */
  | {
      readonly metric: string;
      readonly kind: 'mean';
      readonly value: number;
      readonly rows: number;
      readonly delta: Delta;
    }
  /** Not additive: the API's own figure, from the one row of the report `from` (summary.aggregates). */
  | { readonly metric: string; readonly kind: 'aggregate'; readonly value: number; readonly from: string }
  /** No row had a number for it. */
  | { readonly metric: string; readonly kind: 'no-data' }
  /** Not additive, and a manifest of an older version without averages: nothing to show. */
  | { readonly metric: string; readonly kind: 'per-row' };

/** The arrow for a delta: ▲ up, ▼ down, = unchanged; empty when there is nothing to compare. */
export function arrow(delta: Delta): '▲' | '▼' | '=' | '' {
  if (delta.kind === 'no-previous-run' || delta.kind === 'n/a') return '';
  if (delta.change > 0) return '▲';
  return delta.change < 0 ? '▼' : '=';
}

/** The change of one value against its predecessor; never NaN or Infinity. */
export function delta(current: number, previous: number | undefined, hasPreviousRun: boolean): Delta {
  if (!hasPreviousRun) return { kind: 'no-previous-run' };
  if (previous === undefined || !Number.isFinite(previous) || !Number.isFinite(current))
    return { kind: 'n/a' };
  const change = current - previous;
  if (previous === 0)
    return change === 0 ? { kind: 'change', change: 0, ratio: null } : { kind: 'new', change };
  return { kind: 'change', change, ratio: change / Math.abs(previous) };
}

/** `totals[name]` under either spelling, as a number (an exact total beyond 2^53 is rounded for display). */
export function totalOf(totals: Readonly<Record<string, TotalValue>>, name: string): number | undefined {
  const exact = own(totals, name);
  if (exact !== undefined) return totalNumber(exact);
  const key = Object.keys(totals).find((k) => sameName(k, name));
  const found = key === undefined ? undefined : own(totals, key);
  return found === undefined ? undefined : totalNumber(found);
}

/** `means[name]` under either spelling. */
export function meanOf(
  report: ManifestReport | undefined,
  name: string,
): { mean: number; rows: number } | undefined {
  const means = report?.means;
  if (means === undefined) return undefined;
  const key = Object.keys(means).find((k) => k === name) ?? Object.keys(means).find((k) => sameName(k, name));
  return key === undefined ? undefined : own(means, key);
}

/** The previous run's succeeded entry of the same report, if any. */
export function previousReport(
  report: ManifestReport,
  previous: Manifest | null,
): ManifestReport | undefined {
  return previous?.reports.find((r) => r.reportId === report.reportId && r.status === 'succeeded');
}

/**
 * The KPI rows of one report: each configured KPI with its total and delta, or marked per-row when the
 * manifest does not total it. `previous` is the whole previous manifest (null when there is none).
 */
export function kpisFor(
  kpis: readonly string[],
  report: ManifestReport,
  previous: Manifest | null,
  aggregates: { readonly sources?: Readonly<Record<string, string>>; readonly run?: Manifest } = {},
): Kpi[] {
  const before = previousReport(report, previous);
  return kpis.map((metric): Kpi => {
    const value = totalOf(report.totals, metric);
    if (value === undefined) {
      if (isAdditiveMetric(metric)) return { metric, kind: 'no-data' };
      const from = aggregates.sources === undefined ? undefined : own(aggregates.sources, metric);
      const source = aggregates.run?.reports.find((r) => r.reportId === from && r.status === 'succeeded');
      const api = meanOf(source, metric);
      if (from !== undefined && api !== undefined && api.rows === 1)
        return { metric, kind: 'aggregate', value: api.mean, from };
      const mean = meanOf(report, metric);
      if (mean !== undefined) {
        const was = meanOf(before, metric);
        return {
          metric,
          kind: 'mean',
          value: mean.mean,
          rows: mean.rows,
          delta: delta(mean.mean, was?.mean, previous !== null),
        };
      }
      return report.means === undefined ? { metric, kind: 'per-row' } : { metric, kind: 'no-data' };
    }
    const declared = report.columns.find(
      (c) => sameName(c.apiName ?? c.name, metric) || sameName(c.name, metric),
    )?.type;
    const double = declared === 'double' || (declared === undefined && !Number.isInteger(value));
    return {
      metric,
      kind: 'total',
      value,
      type: double ? 'double' : 'int64',
      delta: delta(value, before ? totalOf(before.totals, metric) : undefined, previous !== null),
    };
  });
}
