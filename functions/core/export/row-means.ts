/**
 * Per-row averages of the metrics that are never summed (rates, averages, reach, ROI: see
 * `isAdditiveMetric`), so the email can show a number for such a KPI and say what it is ("average per
 * post, 2,100 posts") instead of a card without one. Streamed like the totals: a running sum and a
 * count of the rows that had a number, nothing per row kept.
 */
import type { Cell } from './flatten';
import { isAdditiveMetric } from './totals';

/** A running mean: the sum of the numeric values and how many rows had one. */
export interface MeanState {
  readonly sum: number;
  readonly rows: number;
}

/** The manifest's form: the average per row and how many rows it is over. */
export interface RowMean {
  readonly mean: number;
  readonly rows: number;
}

export class RowMeans {
  private readonly acc = new Map<string, { sum: number; rows: number }>();

  constructor(from?: Readonly<Record<string, MeanState>>) {
    for (const [name, s] of Object.entries(from ?? {})) this.acc.set(name, { sum: s.sum, rows: s.rows });
  }

  /** Adds the numeric cells of a metric that is not additive; nulls and other metrics are skipped. */
  addColumn(name: string, cells: readonly Cell[]): void {
    if (isAdditiveMetric(name)) return;
    let a = this.acc.get(name);
    for (const v of cells) {
      const x = typeof v === 'bigint' ? Number(v) : v;
      if (typeof x !== 'number' || !Number.isFinite(x)) continue;
      a ??= { sum: 0, rows: 0 };
      a.sum += x;
      a.rows += 1;
    }
    if (a) this.acc.set(name, a);
  }

  /** The averages, for metrics with at least one numeric value. */
  result(): Record<string, RowMean> {
    return Object.fromEntries(
      [...this.acc].map(([name, a]) => [name, { mean: a.sum / a.rows, rows: a.rows }]),
    );
  }

  snapshot(): Record<string, MeanState> {
    return Object.fromEntries([...this.acc].map(([name, a]) => [name, { sum: a.sum, rows: a.rows }]));
  }
}
