/**
 * The top N rows by one metric, kept in a bounded min-heap so memory is O(N) whatever the report's
 * size. Ties keep the row that came first (lower sequence number), so the result does not depend on
 * page timing or on where a continuation split the export.
 */
import * as z from 'zod/mini';
import { keyedRecord } from '../keyed-record';

/** One row of the summary's top-N table: flattened, values already typed, strings untrusted. */
export const SummaryRowSchema = keyedRecord(z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type SummaryRow = z.infer<typeof SummaryRowSchema>;

/** Rows in the email's top list when a report sets `summary.topBy` and not `summary.topN`. */
export const DEFAULT_TOP_N = 10;

export interface TopEntry {
  readonly value: number;
  readonly seq: number;
  readonly row: SummaryRow;
}

/** a ranks below b (a is evicted first). */
function below(a: TopEntry, b: TopEntry): boolean {
  return a.value < b.value || (a.value === b.value && a.seq > b.seq);
}

export class TopN {
  private readonly heap: TopEntry[];

  constructor(
    private readonly n: number,
    from: readonly TopEntry[] = [],
  ) {
    this.heap = [];
    for (const e of from) this.offer(e);
  }

  /** Considers a row; rows whose value is not a number never rank. */
  offer(entry: TopEntry): void {
    if (this.n <= 0 || !Number.isFinite(entry.value)) return;
    if (this.heap.length < this.n) {
      this.heap.push(entry);
      this.up(this.heap.length - 1);
    } else if (this.heap[0] !== undefined && below(this.heap[0], entry)) {
      this.heap[0] = entry;
      this.down(0);
    }
  }

  /** Whether a value could enter (cheap pre-check before building the row object). */
  wouldTake(value: number, seq: number): boolean {
    const min = this.heap[0];
    return this.heap.length < this.n || (min !== undefined && below(min, { value, seq, row: {} }));
  }

  /** Largest first. */
  sorted(): TopEntry[] {
    return [...this.heap].sort((a, b) => (below(a, b) ? 1 : below(b, a) ? -1 : 0));
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const hi = h[i];
      const hp = h[p];
      if (hi === undefined || hp === undefined || !below(hi, hp)) return;
      h[i] = hp;
      h[p] = hi;
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      let m = i;
      for (const c of [2 * i + 1, 2 * i + 2]) {
        const hc = h[c];
        const hm = h[m];
        if (hc !== undefined && hm !== undefined && below(hc, hm)) m = c;
      }
      if (m === i) return;
      const hi = h[i];
      const hm = h[m];
      if (hi === undefined || hm === undefined) return;
      h[i] = hm;
      h[m] = hi;
      i = m;
    }
  }
}
