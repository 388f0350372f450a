/**
 * One column chunk of a row group, written page by page as its rows arrive. In the encoder worker the
 * rows come a slice (~1,000 rows) at a time while the row group fills (`encoder.ts`); each time the
 * column has a page's worth of rows, that data page is written and Snappy-compressed at once, and only
 * its bytes are kept. When the group is complete only the column's last partial page, its dictionary
 * page, its statistics and the footer are left: that is what the time between the report's last page
 * and the exit holds (docs/performance.md, "Start to finish at 16k and 30k rows").
 *
 * Which rows go in which page depends on the values only, never on how they were sliced, so a chunk
 * fed slice by slice is byte-identical to the same chunk fed at once (test/core/export/parquet-chunk.test.ts):
 * - A page closes as soon as it holds `PAGE_ROWS` rows, or before a row that would take its estimated
 *   value bytes (a string's UTF-16 length; fixed-size values never get there) to `PAGE_SIZE`.
 * - The dictionary is decided on the first pages (`DECIDE_ROWS`, or the whole chunk when it is
 *   smaller): a sample of them must not be more than 90 % distinct, and the dictionary and its indexes
 *   must at most halve their plain bytes (`parquet-values.ts`). Indexes into a dictionary that is
 *   still growing are final (each RLE_DICTIONARY page carries its own bit width), so every later page
 *   is written as soon as it closes.
 * - Once the dictionary of a fixed-size column stops paying for the rows so far, the chunk falls back
 *   to PLAIN for its remaining pages, as parquet-mr does: a dictionary page, RLE_DICTIONARY pages,
 *   then PLAIN pages. A string column keeps its dictionary to the chunk's end (fastparquet 2026.0
 *   reads a string chunk that mixes the two wrongly).
 */
import type { Cell } from './flatten';
import type { ColumnDef } from './model';
import { ByteSink } from './parquet-bytes';
import { type Chunk, type PageValues, writeDataPage, writeDictionaryPage } from './parquet-pages';
import { PAGE_ROWS, PAGE_SIZE, type Physical, PLAIN, RLE, RLE_DICTIONARY } from './parquet-schema';
import { type Bounds, extendBounds, statisticsOf } from './parquet-stats';
import {
  DictionaryBuilder,
  physicalOf,
  physicalValues,
  sampleFavoursDictionary,
  type Value,
} from './parquet-values';

const PLAIN_PAGE: PageValues = { encoding: PLAIN };
/**
 * The first pages' rows the dictionary is decided on; their pages are written once it is. Fewer rows
 * decide worse: a column of a few thousand distinct values (a count such as `shares`) needs several
 * thousand rows before a dictionary pays. Measured on the bench's 16k rows: deciding on 1,000 rows
 * made the file 15 % larger than deciding on the whole group, on 5,000 rows 2.6 %.
 */
const DECIDE_ROWS = 5_000;

export class ColumnChunk {
  private readonly physical: Physical;
  /** The open page's rows (copied only when a page spans two slices). */
  private open: (Value | null)[] = [];
  private openBytes = 0;
  /** Rows in closed pages. */
  private rows = 0;
  private nulls = 0;
  private nans: number | undefined;
  private readonly bounds: Bounds = {};
  /** undefined until the first page decides; then the dictionary while pages use it, else null. */
  private dict: DictionaryBuilder | null | undefined;
  /** The dictionary's entries once any page used it (its page is written before the data pages). */
  private entries: Value[] | undefined;
  /** Until the dictionary is decided: the closed pages' rows, and where each page ends in them. */
  private pending: (Value | null)[] = [];
  private pendingEnds: number[] = [];
  /** The closed pages' bytes (headers included), and where each starts, its first row. */
  private readonly pageBytes = new ByteSink(1 << 12);
  private readonly pages: { at: number; firstRow: number }[] = [];
  private readonly encodingCounts = new Map<number, number>();
  private uncompressed = 0;

  constructor(private readonly column: ColumnDef) {
    this.physical = physicalOf(column.type);
    this.nans = this.physical === 'DOUBLE' ? 0 : undefined;
  }

  /** Takes the next rows' cells (as the column holds them: `columnCells`); writes every page they fill. */
  add(cells: readonly Cell[]): void {
    const vals = physicalValues(this.column.type, cells);
    const n = vals.length;
    // NaNs are counted here (a dictionary page's bounds cannot tell how often), nulls as pages are written
    if (this.nans !== undefined) {
      let nans = 0;
      for (let i = 0; i < n; i += 1) if (Number.isNaN(vals[i])) nans += 1;
      this.nans += nans;
    }

    const strings = this.physical === 'BYTE_ARRAY';
    let i = 0;
    while (i < n) {
      const inPage = this.open.length;
      const limit = Math.min(n, i + PAGE_ROWS - inPage);
      let j = limit;
      let bytes = this.openBytes;
      if (strings) {
        for (j = i; j < limit; j += 1) {
          const v = vals[j] as string | null;
          const size = v === null ? 0 : v.length;
          if (bytes + size >= PAGE_SIZE && inPage + j - i > 0) break;
          bytes += size;
        }
      }
      if (j === n && inPage + n - i < PAGE_ROWS) {
        // the page is still open
        for (let k = i; k < n; k += 1) this.open.push(vals[k] as Value | null);
        this.openBytes = bytes;
        return;
      }
      if (inPage === 0) this.close(vals, i, j);
      else {
        for (let k = i; k < j; k += 1) this.open.push(vals[k] as Value | null);
        this.close(this.open, 0, this.open.length);
      }
      this.open = [];
      this.openBytes = 0;
      i = j;
    }
  }

  /** Writes the chunk to `out`, whose first byte is at `base` in the file: dictionary page, then data pages. */
  write(out: ByteSink, base: number): Chunk {
    if (this.open.length > 0 || (this.pages.length === 0 && this.pendingEnds.length === 0))
      this.close(this.open, 0, this.open.length);
    this.open = [];
    if (this.dict === undefined) this.decide();
    const { physical, entries } = this;
    // a dictionary page's values are the bounds of the pages that use it (ties are equal values)
    if (entries !== undefined) extendBounds(this.bounds, physical, entries);
    const fileOffset = base + out.length;
    let uncompressed = this.uncompressed;
    if (entries !== undefined) uncompressed += writeDictionaryPage(out, physical, entries);
    const dataOffset = base + out.length;
    out.bytes(this.pageBytes.view());
    // the values' encodings (the dictionary page's is PLAIN) and the levels' (RLE), in enum order
    const used = new Set([...this.encodingCounts.keys(), RLE, ...(entries === undefined ? [] : [PLAIN])]);
    return {
      name: this.column.name,
      physical,
      encodings: [...used].sort((a, b) => a - b),
      values: this.rows,
      fileOffset,
      ...(entries === undefined ? {} : { dictionaryOffset: fileOffset }),
      dataOffset,
      uncompressed,
      compressed: base + out.length - fileOffset,
      statistics: statisticsOf(physical, this.bounds, this.nulls, this.nans),
      pageEncodings: [...this.encodingCounts],
      pages: this.pages.map((p, k) => ({
        offset: dataOffset + p.at,
        size: (this.pages[k + 1]?.at ?? this.pageBytes.length) - p.at,
        firstRow: p.firstRow,
      })),
    };
  }

  /** A page is complete: written now, or kept until the dictionary is decided. */
  private close(values: readonly (Value | null)[], start: number, end: number): void {
    if (this.dict !== undefined) {
      this.page(values, start, end);
      return;
    }
    for (let k = start; k < end; k += 1) this.pending.push(values[k] as Value | null);
    this.pendingEnds.push(this.pending.length);
    if (this.pending.length >= DECIDE_ROWS) this.decide();
  }

  /** Writes rows [start, end) of `values` as the chunk's next data page (the dictionary decided). */
  private page(values: readonly (Value | null)[], start: number, end: number, indexes?: Int32Array): void {
    const dict = this.dict;
    if (dict != null && indexes === undefined) {
      dict.restart();
      dict.add(values, start, end);
    }
    if (dict == null) extendBounds(this.bounds, this.physical, values, start, end);
    const how: PageValues =
      dict != null ? { encoding: RLE_DICTIONARY, indexes: indexes ?? dict.rowIndexes } : PLAIN_PAGE;
    this.pages.push({ at: this.pageBytes.length, firstRow: this.rows });
    const written = writeDataPage(this.pageBytes, this.physical, values, start, end, how);
    this.uncompressed += written.uncompressed;
    this.nulls += written.nulls;
    this.encodingCounts.set(how.encoding, (this.encodingCounts.get(how.encoding) ?? 0) + 1);
    this.rows += end - start;
    // the dictionary no longer pays for the rows so far: the next pages are PLAIN (not for strings)
    if (dict != null && this.physical !== 'BYTE_ARRAY' && !dict.pays()) this.dict = null;
  }

  /**
   * The first pages' rows decide whether the chunk starts with a dictionary (a sample, then the
   * halving test); then their pages are written.
   */
  private decide(): void {
    const { physical, pending } = this;
    const n = pending.length;
    this.dict = null;
    if (sampleFavoursDictionary(pending, physical)) {
      // fixed-size values: once more than half the rows are distinct the dictionary cannot pay (stop there)
      const dict = new DictionaryBuilder(
        physical,
        n,
        physical === 'BYTE_ARRAY' ? Number.POSITIVE_INFINITY : n / 2,
      );
      dict.add(pending, 0, n);
      if (dict.halves()) {
        dict.unlimit();
        this.dict = dict;
        this.entries = dict.values;
      }
    }
    const indexes = this.dict?.rowIndexes;
    let start = 0;
    for (const end of this.pendingEnds) {
      this.page(pending, start, end, indexes?.subarray(start, end));
      start = end;
    }
    this.pending = [];
    this.pendingEnds = [];
  }
}
