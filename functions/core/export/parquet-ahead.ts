/**
 * A row group's Parquet columns prepared slice by slice while the group fills — in the encoder worker,
 * as each ~1,000-row slice arrives (`encoder.ts`), the way CSV lines are — so that when the group is
 * complete only its pages are left to write (levels, indexes, Snappy, headers). Per slice: the values
 * as written, which rows are defined, the dictionary, the bounds, and a string column's UTF-8 while
 * the column looks like one written plain. Without this, all of that ran after the report's last page
 * arrived, and at the sizes most reports have that was most of the time between the last page and the
 * exit (docs/performance.md, "Start to finish at 16k and 30k rows").
 *
 * `prepared()` is exactly `prepareColumn` of the whole group's cells (parquet-pages.ts), so the bytes
 * are the same (test/core/export/parquet-ahead.test.ts).
 */
import type { Cell } from './flatten';
import type { ColumnDef } from './model';
import { ByteSink } from './parquet-bytes';
import type { PreparedColumn } from './parquet-pages';
import type { Physical } from './parquet-schema';
import { type Bounds, extendBounds, statisticsOf } from './parquet-stats';
import {
  DictionaryBuilder,
  dictionaryOf,
  physicalOf,
  physicalValues,
  sampleFavoursDictionary,
  type Value,
} from './parquet-values';

/** Rows seen before a column is judged likely plain (one slice is ~1,000 rows). */
const MIN_ROWS_TO_JUDGE = 1_000;

export class ColumnAhead {
  private readonly physical: Physical;
  /** Each slice's values as written, in order. */
  private readonly slices: (readonly (Value | null)[])[] = [];
  private rows = 0;
  private defined = new Uint8Array(1 << 10);
  private present = 0;
  private nans: number | undefined;
  private readonly bounds: Bounds = {};
  /** The dictionary, built while it may pay; undefined once the values so far make that unlikely. */
  private dict: DictionaryBuilder | undefined;
  /** Length-prefixed UTF-8 of rows [0, plainRows) of a string column, and where each row starts. */
  private readonly plain: ByteSink | undefined;
  private offsets = new Int32Array(0);
  private plainRows = 0;

  constructor(private readonly column: ColumnDef) {
    this.physical = physicalOf(column.type);
    this.nans = this.physical === 'DOUBLE' ? 0 : undefined;
    this.dict = this.physical === 'BOOLEAN' ? undefined : new DictionaryBuilder(this.physical, 1 << 10);
    if (this.physical === 'BYTE_ARRAY') {
      this.plain = new ByteSink(1 << 16);
      this.offsets = new Int32Array(1 << 10);
    }
  }

  /** Takes the next rows' cells (as the column holds them: `columnCells`). */
  add(cells: readonly Cell[]): void {
    const vals = physicalValues(this.column.type, cells);
    const from = this.rows;
    const n = vals.length;
    this.slices.push(vals);
    this.rows += n;
    if (this.defined.length < from + n) this.defined = grown(this.defined, from + n);
    const defined = this.defined;
    let present = 0;
    let nans = 0;
    for (let i = 0; i < n; i += 1) {
      const v = vals[i];
      if (v === null) continue;
      defined[from + i] = 1;
      present += 1;
      if (Number.isNaN(v)) nans += 1;
    }
    this.present += present;
    if (this.nans !== undefined) this.nans += nans;
    extendBounds(this.bounds, this.physical, vals);
    this.dict?.add(vals, 0, n);
    // mostly distinct values so far (a post id, a permalink): the column is likely written plain, so no
    // dictionary is built ahead (should the whole group's sample favour one, it is built at the end)
    // and a string column's UTF-8 is written now
    if (this.dict?.unlikely && from + n >= MIN_ROWS_TO_JUDGE) this.dict = undefined;
    if (this.plain !== undefined && this.plainRows === from && this.dict === undefined) this.utf8(vals, from);
  }

  /** The column as `prepareColumn` makes it from the whole group's cells. */
  prepared(): PreparedColumn {
    const { physical, rows } = this;
    const values = ([] as (Value | null)[]).concat(...this.slices);
    const dict = !sampleFavoursDictionary(values, physical)
      ? undefined
      : this.dict !== undefined
        ? this.dict.result()
        : dictionaryOf(values, physical);
    const statistics = statisticsOf(physical, this.bounds, rows - this.present, this.nans);
    const prepared = {
      values,
      defined: this.defined.subarray(0, rows),
      present: this.present,
      dict,
      statistics,
    };
    if (dict !== undefined || this.plain === undefined) return prepared;
    if (this.plainRows < rows) this.utf8(values.slice(this.plainRows), this.plainRows);
    return { ...prepared, plain: { bytes: this.plain.buf, offsets: this.offsets.subarray(0, rows + 1) } };
  }

  /** Writes `vals` (rows from `at` = plainRows on) as length-prefixed UTF-8, each row's start recorded. */
  private utf8(vals: readonly (Value | null)[], at: number): void {
    const plain = this.plain as ByteSink;
    const to = at + vals.length;
    if (this.offsets.length < to + 1) this.offsets = grown(this.offsets, to + 1);
    const offsets = this.offsets;
    for (let i = 0; i < vals.length; i += 1) {
      offsets[at + i] = plain.length;
      const v = vals[i];
      if (v !== null) plain.utf8Prefixed(v as string);
    }
    offsets[to] = plain.length;
    this.plainRows = to;
  }
}

function grown<T extends Uint8Array | Int32Array>(a: T, need: number): T {
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, 2 * a.length));
  next.set(a);
  return next;
}
