/**
 * The pages of a column chunk: a data page (v1, Snappy) of a range of rows — its definition levels,
 * then its values PLAIN or as dictionary indexes — and the dictionary page, each with its page
 * header; and what the footer records of a chunk.
 *
 * Why v1 pages, and booleans PLAIN: they are what every reader reads, also in a chunk of several
 * pages. fastparquet (2026.0) misreads a v2 page with nulls of an integer or boolean column when the
 * chunk has more than one page (it writes the page's null mask over the whole column), and misreads
 * RLE booleans in v1 pages (it does not skip their 4-byte length). test/e2e/independent-readers.test.ts
 * holds pyarrow, polars, DuckDB and fastparquet to the same values. The chunk itself (which rows go in
 * which page, the dictionary decision) is `parquet-chunk.ts`.
 */
import SnappyJS from 'snappyjs';
import { ByteSink, Compact, writeHybrid } from './parquet-bytes';
import { DATA_PAGE, DICTIONARY_PAGE, type Physical, PLAIN, RLE, RLE_DICTIONARY } from './parquet-schema';
import type { Statistics } from './parquet-stats';
import type { Value } from './parquet-values';

/** What the footer records of one column chunk. */
export interface Chunk {
  readonly name: string;
  readonly physical: Physical;
  readonly encodings: number[];
  readonly values: number;
  readonly fileOffset: number;
  readonly dictionaryOffset?: number;
  readonly dataOffset: number;
  readonly uncompressed: number;
  readonly compressed: number;
  readonly statistics: Statistics;
  /** How many data pages were written with each encoding, in order of first use. */
  readonly pageEncodings: readonly (readonly [encoding: number, count: number])[];
  /** Offset, size and first row of each page (an offset index is written when there are several). */
  readonly pages: { offset: number; size: number; firstRow: number }[];
}

/** Buffers reused from page to page (their bytes are copied out before the next page). */
class Scratch {
  readonly body = new ByteSink(1 << 16);
  readonly header = new ByteSink(64);
  defined = new Uint8Array(1 << 10);
  present = new Int32Array(1 << 10);
}

/** One scratch for the thread: pages are written one at a time, synchronously. */
const scratch = new Scratch();

/** What a data page's encoding is made from: the chunk's dictionary indexes of its rows, or nothing. */
export type PageValues =
  | { readonly encoding: typeof RLE_DICTIONARY; readonly indexes: Int32Array }
  | { readonly encoding: typeof PLAIN };

/**
 * Appends one data page (v1) of `values[start, end)` to `out`: its header, then Snappy of the
 * definition levels (a 4-byte length, then the RLE / bit-packed hybrid) followed by the values.
 * Returns the page's uncompressed size as the footer counts it (header included), and its nulls.
 */
export function writeDataPage(
  out: ByteSink,
  physical: Physical,
  values: readonly (Value | null)[],
  start: number,
  end: number,
  how: PageValues,
): { readonly uncompressed: number; readonly nulls: number } {
  const rows = end - start;
  if (scratch.defined.length < rows) scratch.defined = new Uint8Array(rows);
  const defined = scratch.defined;
  let nulls = 0;
  for (let i = 0; i < rows; i += 1) {
    if (values[start + i] === null) {
      defined[i] = 0;
      nulls += 1;
    } else defined[i] = 1;
  }
  const body = scratch.body;
  body.length = 0;
  body.u32(0);
  body.setU32(0, writeHybrid(body, defined, 0, rows, 1));
  if (how.encoding === RLE_DICTIONARY) writeIndexes(body, how.indexes, 0, rows);
  else writePlain(body, physical, values, start, end);
  const raw = body.view();
  const packed = SnappyJS.compress(raw);
  const header = scratch.header;
  header.length = 0;
  new Compact(header).inStruct((c) =>
    c
      .i32(1, DATA_PAGE)
      .i32(2, raw.length)
      .i32(3, packed.length)
      .struct(5, (c) => c.i32(1, rows).i32(2, how.encoding).i32(3, RLE).i32(4, RLE)),
  );
  out.bytes(header.view());
  out.bytes(packed);
  return { uncompressed: header.length + raw.length, nulls };
}

/** Appends the dictionary page of `entries` to `out`; returns its uncompressed size (header included). */
export function writeDictionaryPage(out: ByteSink, physical: Physical, entries: readonly Value[]): number {
  const body = scratch.body;
  body.length = 0;
  writePlain(body, physical, entries);
  const raw = body.view();
  const packed = SnappyJS.compress(raw);
  const at = out.length;
  new Compact(out).inStruct((c) =>
    c
      .i32(1, DICTIONARY_PAGE)
      .i32(2, raw.length)
      .i32(3, packed.length)
      .struct(7, (c) => c.i32(1, entries.length).i32(2, PLAIN)),
  );
  const headerBytes = out.length - at;
  out.bytes(packed);
  return headerBytes + raw.length;
}

/** PLAIN values of the non-null entries of `values[start, end)`. */
function writePlain(
  sink: ByteSink,
  physical: Physical,
  values: readonly (Value | null)[],
  start = 0,
  end = values.length,
): void {
  switch (physical) {
    case 'BYTE_ARRAY':
      for (let i = start; i < end; i += 1) {
        const v = values[i];
        if (v !== null) sink.utf8Prefixed(v as string);
      }
      return;
    case 'INT64':
      for (let i = start; i < end; i += 1) {
        const v = values[i];
        if (v !== null) sink.i64(v as number | bigint);
      }
      return;
    case 'DOUBLE':
      for (let i = start; i < end; i += 1) {
        const v = values[i];
        if (v !== null) sink.f64(v as number);
      }
      return;
    case 'INT32':
      for (let i = start; i < end; i += 1) {
        const v = values[i];
        if (v !== null) sink.i32(v as number);
      }
      return;
    case 'BOOLEAN': {
      let byte = 0;
      let k = 0;
      for (let i = start; i < end; i += 1) {
        const v = values[i];
        if (v === null) continue;
        if (v) byte |= 1 << (k % 8);
        if (k % 8 === 7) {
          sink.u8(byte);
          byte = 0;
        }
        k += 1;
      }
      if (k % 8) sink.u8(byte);
      return;
    }
  }
}

/** Dictionary indexes of the non-null rows in [start, end): bit width, then the RLE / bit-packed hybrid. */
function writeIndexes(sink: ByteSink, indexes: Int32Array, start: number, end: number): void {
  if (scratch.present.length < end - start) scratch.present = new Int32Array(end - start);
  const present = scratch.present;
  let n = 0;
  let max = 0;
  for (let i = start; i < end; i += 1) {
    const at = indexes[i] as number;
    if (at < 0) continue;
    present[n++] = at;
    if (at > max) max = at;
  }
  const bitWidth = Math.ceil(Math.log2(max + 1));
  sink.u8(bitWidth);
  writeHybrid(sink, present, 0, n, bitWidth);
}
