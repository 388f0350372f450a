/**
 * The trend of an over-time report: one value per bucket, in date order (whatever order the rows came
 * in), summed when several rows share a date, and grouped into at most MAX_BARS bars so a year of days
 * still fits a phone.
 */

import type { SummaryRow } from '../export/top';
import { own } from '../records';

export const MAX_BARS = 62;

export interface TrendPoint {
  /** First and last date the bar covers (equal for one bucket). */
  readonly start: string;
  readonly end: string;
  /** null when no bucket of the bar had a number. */
  readonly value: number | null;
}

export interface Trend {
  readonly metric: string;
  readonly points: readonly TrendPoint[];
  /** Total over all buckets, null when none had a number. */
  readonly total: number | null;
  /** The bar with the highest value, null when none had one. */
  readonly peak: TrendPoint | null;
}

/** Builds the trend of `metric` from the rows, by the date column `dateColumn`. */
export function buildTrend(rows: readonly SummaryRow[], dateColumn: string, metric: string): Trend {
  const byDate = new Map<string, number | null>();
  for (const row of rows) {
    const date = own(row, dateColumn);
    if (typeof date !== 'string') continue;
    const v = own(row, metric);
    const before = byDate.get(date) ?? null;
    if (typeof v === 'number' && Number.isFinite(v)) byDate.set(date, (before ?? 0) + v);
    else byDate.set(date, before);
  }
  const daily = [...byDate].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const size = Math.max(1, Math.ceil(daily.length / MAX_BARS));
  const points: TrendPoint[] = [];
  for (let i = 0; i < daily.length; i += size) {
    const group = daily.slice(i, i + size);
    const numbers = group.map(([, v]) => v).filter((v): v is number => v !== null);
    points.push({
      start: group[0]?.[0] ?? '',
      end: group.at(-1)?.[0] ?? '',
      value: numbers.length === 0 ? null : numbers.reduce((s, v) => s + v, 0),
    });
  }
  const valued = points.filter((p): p is TrendPoint & { value: number } => p.value !== null);
  const peak = valued.reduce<(TrendPoint & { value: number }) | null>(
    (best, p) => (best === null || p.value > best.value ? p : best),
    null,
  );
  return {
    metric,
    points,
    total: valued.length === 0 ? null : valued.reduce((s, p) => s + p.value, 0),
    peak,
  };
}
