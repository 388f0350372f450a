/**
 * One column chunk of a row group: its dictionary page when it has one, then data pages (v2, Snappy)
 * split by estimated value bytes, and what the footer records of it.
 */
import SnappyJS from 'snappyjs';
import type { Cell } from './flatten';
import type { ColumnDef } from './model';
import { ByteSink, Compact, writeHybrid } from './parquet-bytes';
import {
  DATA_PAGE_V2,
  DICTIONARY_PAGE,
  PAGE_SIZE,
  type Physical,
  PLAIN,
  RLE,
  RLE_DICTIONARY,
} from './parquet-schema';
import { type Statistics, statistics } from './parquet-stats';
import {
  type Dictionary,
  dictionaryOf,
  FIXED_BYTES,
  physicalOf,
  physicalValues,
  type Value,
} from './parquet-values';

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
  readonly pageEncoding: number;
  /** Offset, size and first row of each page (an offset index is written when there are several). */
  readonly pages: { offset: number; size: number; firstRow: number }[];
  offsetIndex?: { offset: number; length: number };
}

export interface Group {
  readonly chunks: Chunk[];
  readonly rows: number;
  readonly uncompressed: number;
  readonly compressed: number;
}

/** Scratch buffers reused from column to column (their bytes are copied before the next use). */
export class Scratch {
  readonly plain = new ByteSink(1 << 20);
  readonly page = new ByteSink(1 << 16);
  readonly levels = new ByteSink(1 << 12);
  offsets = new Int32Array(0);

  offsetsFor(rows: number): Int32Array {
    if (this.offsets.length < rows + 1) this.offsets = new Int32Array(rows + 1);
    return this.offsets;
  }
}

/**
 * Rows [start, end) of each page: a page ends once its estimated value bytes reach `PAGE_SIZE`.
 * `total` is the chunk's estimated bytes: below `PAGE_SIZE` it is one page without a look at each row.
 */
function pageBounds(rows: number, total: number, sizeOf: (row: number) => number): [number, number][] {
  if (total < PAGE_SIZE) return [[0, rows]];
  const pages: [number, number][] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < rows; i += 1) {
    const size = sizeOf(i);
    bytes += size;
    if (bytes >= PAGE_SIZE && i > start) {
      pages.push([start, i]);
      start = i;
      bytes = size;
    }
  }
  if (start < rows) pages.push([start, rows]);
  return pages;
}

/**
 * A column of a row group ready to be written as a chunk: its values as written, which rows are
 * defined, the dictionary when it pays, the statistics, and a plain string column's UTF-8. Made from
 * the whole group's cells here (`prepareColumn`), or slice by slice as the group fills
 * (`parquet-ahead.ts`), with the same result.
 */
export interface PreparedColumn {
  readonly values: readonly (Value | null)[];
  readonly defined: Uint8Array;
  readonly present: number;
  readonly dict: Dictionary | undefined;
  readonly statistics: Statistics;
  /** A plain (no dictionary) BYTE_ARRAY column: its length-prefixed UTF-8, each row's start (rows + 1). */
  readonly plain?: { readonly bytes: Uint8Array; readonly offsets: Int32Array };
}

/** Writes one column chunk of a row group to `out`, whose first byte is at `base` in the file. */
export function writeChunk(
  out: ByteSink,
  base: number,
  scratch: Scratch,
  column: ColumnDef,
  cells: readonly Cell[],
): Chunk {
  return writePrepared(out, base, scratch, column, prepareColumn(column, cells, scratch));
}

/** The whole group's cells of `column` prepared at once (a plain string column's UTF-8 in `scratch`). */
export function prepareColumn(column: ColumnDef, cells: readonly Cell[], scratch: Scratch): PreparedColumn {
  const physical = physicalOf(column.type);
  const values = physicalValues(column.type, cells);
  const rows = values.length;
  const defined = new Uint8Array(rows);
  let present = 0;
  let nans = physical === 'DOUBLE' ? 0 : undefined;
  for (let i = 0; i < rows; i += 1) {
    const v = values[i];
    if (v === null) continue;
    defined[i] = 1;
    present += 1;
    if (nans !== undefined && Number.isNaN(v)) nans += 1;
  }
  const dict = dictionaryOf(values, physical);
  const stats = statistics(physical, dict ? dict.values : values, rows - present, nans);
  // a plain string column is written as UTF-8 once; each page is then a range of those bytes
  let plain: PreparedColumn['plain'];
  if (!dict && physical === 'BYTE_ARRAY') {
    const sink = scratch.plain;
    sink.length = 0;
    const offsets = scratch.offsetsFor(rows);
    for (let i = 0; i < rows; i += 1) {
      offsets[i] = sink.length;
      const v = values[i];
      if (v !== null) sink.utf8Prefixed(v as string);
    }
    offsets[rows] = sink.length;
    plain = { bytes: sink.buf, offsets };
  }
  return { values, defined, present, dict, statistics: stats, ...(plain ? { plain } : {}) };
}

/** Writes a prepared column as one chunk to `out`, whose first byte is at `base` in the file. */
export function writePrepared(
  out: ByteSink,
  base: number,
  scratch: Scratch,
  column: ColumnDef,
  prepared: PreparedColumn,
): Chunk {
  const physical = physicalOf(column.type);
  const { values, defined, present, dict, statistics: stats } = prepared;
  const rows = values.length;
  const fileOffset = base + out.length;
  const thrift = new Compact(out);
  let uncompressed = 0;

  let dictionaryOffset: number | undefined;
  if (dict) {
    dictionaryOffset = base + out.length;
    const plain = scratch.page;
    plain.length = 0;
    writePlain(plain, physical, dict.values);
    const raw = plain.view();
    const packed = SnappyJS.compress(raw);
    const at = out.length;
    thrift.inStruct((c) =>
      c
        .i32(1, DICTIONARY_PAGE)
        .i32(2, raw.length)
        .i32(3, packed.length)
        .struct(7, (c) => c.i32(1, dict.values.length).i32(2, PLAIN)),
    );
    uncompressed += out.length - at + raw.length;
    out.bytes(packed);
  }

  const offsets = prepared.plain?.offsets;
  const encoding = dict ? RLE_DICTIONARY : physical === 'BOOLEAN' && rows > 16 ? RLE : PLAIN;
  // pages by estimated value bytes: a plain string's UTF-8 length, else a fixed size (a 4-byte index)
  let bounds: [number, number][];
  if (offsets) {
    const o = offsets;
    bounds = pageBounds(rows, (o[rows] as number) - 4 * present, (i) => {
      const bytes = (o[i + 1] as number) - (o[i] as number);
      return bytes === 0 ? 0 : bytes - 4;
    });
  } else {
    const width = dict ? 4 : FIXED_BYTES[physical as Exclude<Physical, 'BYTE_ARRAY'>];
    bounds = pageBounds(rows, present * width, (i) => (defined[i] ? width : 0));
  }

  const dataOffset = base + out.length;
  const pages: Chunk['pages'] = [];
  for (const [start, end] of bounds) {
    const pageAt = out.length;
    const levels = scratch.levels;
    levels.length = 0;
    const levelBytes = writeHybrid(levels, defined, start, end - start, 1);
    let nulls = 0;
    for (let i = start; i < end; i += 1) if (defined[i] === 0) nulls += 1;

    let raw: Uint8Array;
    if (offsets) {
      raw = (prepared.plain as { bytes: Uint8Array }).bytes.subarray(
        offsets[start] as number,
        offsets[end] as number,
      );
    } else {
      const body = scratch.page;
      body.length = 0;
      if (dict) writeIndexes(body, dict.indexes, start, end);
      else if (encoding === RLE) writeBooleansRle(body, values, start, end);
      else writePlain(body, physical, values, start, end);
      raw = body.view();
    }
    const packed = SnappyJS.compress(raw);
    const headerAt = out.length;
    thrift.inStruct((c) =>
      c
        .i32(1, DATA_PAGE_V2)
        .i32(2, levelBytes + raw.length)
        .i32(3, levelBytes + packed.length)
        .struct(8, (c) =>
          c
            .i32(1, end - start)
            .i32(2, nulls)
            .i32(3, end - start)
            .i32(4, encoding)
            .i32(5, levelBytes)
            .i32(6, 0),
        ),
    );
    uncompressed += out.length - headerAt + levelBytes + raw.length;
    out.bytes(levels.view());
    out.bytes(packed);
    pages.push({ offset: base + pageAt, size: out.length - pageAt, firstRow: start });
  }

  return {
    name: column.name,
    physical,
    encodings: dict ? [PLAIN, RLE_DICTIONARY] : [encoding],
    values: rows,
    fileOffset,
    ...(dictionaryOffset === undefined ? {} : { dictionaryOffset }),
    dataOffset,
    uncompressed,
    compressed: base + out.length - fileOffset,
    statistics: stats,
    pageEncoding: encoding,
    pages,
  };
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
  const present = new Int32Array(end - start);
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

/** Booleans of the non-null rows in [start, end), RLE-encoded with a 4-byte length first. */
function writeBooleansRle(
  sink: ByteSink,
  values: readonly (Value | null)[],
  start: number,
  end: number,
): void {
  const bits: number[] = [];
  for (let i = start; i < end; i += 1) if (values[i] !== null) bits.push(values[i] ? 1 : 0);
  const at = sink.length;
  sink.u32(0);
  sink.setU32(at, writeHybrid(sink, bits, 0, bits.length, 1));
}
