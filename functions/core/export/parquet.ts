/**
 * Parquet encoding of one part: our own encoder for the one shape the export writes, a flat schema of
 * OPTIONAL columns, written row group by row group. It makes the choices hyparquet-writer's public
 * `ParquetWriter` makes for such a file (data page v2, a dictionary page when the dictionary at least
 * halves the plain bytes, statistics with 16-byte string bounds, an offset index for chunks of several
 * pages, Snappy), so `test/core/export/parquet-golden.test.ts` can hold our bytes to the library's for
 * the same rows; but it works from the column's cells directly, which is what makes it cheap: strings
 * are written as UTF-8 once into one buffer, a dictionary column's bounds come from its dictionary,
 * definition levels and indexes are typed arrays, and nothing is copied per page.
 *
 * This runs inside the encoder worker (see `encoder.ts`), so a long row group never holds up the event
 * loop that fetches pages. docs/performance.md has the measurements behind owning it.
 */
import SnappyJS from 'snappyjs';
import type { GroupCells } from './cells';
import type { ColumnDef } from './columns';
import type { Cell } from './flatten';
import { ByteSink, Compact, utf8Bytes, writeHybrid } from './parquet-bytes';
import type { PartEncoder } from './part-encoder';
import { epochDay, epochMicrosValue } from './temporal';

/**
 * The column types this encoder writes. `timestamp` (ISO date-time text → INT64 microseconds since
 * the epoch, UTC) is accepted ahead of the column model using it.
 */
export type ParquetType = ColumnDef['type'] | 'timestamp';

type Physical = 'BOOLEAN' | 'INT32' | 'INT64' | 'DOUBLE' | 'BYTE_ARRAY';

/** The Parquet schema element of a column: every column is OPTIONAL (nulls are data). */
export function schemaElement(name: string, type: ParquetType) {
  const base = { name, repetition_type: 'OPTIONAL' as const };
  switch (type) {
    case 'string':
      return { ...base, type: 'BYTE_ARRAY' as const, converted_type: 'UTF8' as const };
    case 'int64':
      return { ...base, type: 'INT64' as const };
    case 'double':
      return { ...base, type: 'DOUBLE' as const };
    case 'boolean':
      return { ...base, type: 'BOOLEAN' as const };
    case 'date':
      return { ...base, type: 'INT32' as const, converted_type: 'DATE' as const };
    case 'timestamp':
      return {
        ...base,
        type: 'INT64' as const,
        converted_type: 'TIMESTAMP_MICROS' as const,
        logical_type: { type: 'TIMESTAMP' as const, isAdjustedToUTC: true, unit: 'MICROS' as const },
      };
  }
}

/** Options every part is written with. */
export const PARQUET_OPTIONS = { codec: 'SNAPPY', createdBy: 'report-exporter' } as const;

// Thrift enum values (parquet.thrift)
const TYPE: Record<Physical, number> = { BOOLEAN: 0, INT32: 1, INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6 };
const CONVERTED = { UTF8: 0, DATE: 6, TIMESTAMP_MICROS: 10 } as const;
const OPTIONAL = 1;
const PLAIN = 0;
const RLE = 3;
const RLE_DICTIONARY = 8;
const DICTIONARY_PAGE = 2;
const DATA_PAGE_V2 = 3;
const SNAPPY = 1;
const MAGIC = 0x31524150; // "PAR1"

/** A page holds about this many value bytes (estimated as hyparquet-writer does). */
const PAGE_SIZE = 1_048_576;
/** Byte-array statistics are cut to this many bytes (a max rounded up). */
const STATS_BYTES = 16;

/** A non-null value as written: strings, integers (a bigint only beyond 2^53), doubles, booleans. */
type Value = string | number | bigint | boolean;

function int64(v: Cell): number | bigint | null {
  if (typeof v === 'bigint') return v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v;
  if (typeof v !== 'number' || !Number.isInteger(v)) return null;
  return Number.isSafeInteger(v) ? v : BigInt(v);
}

/** A column's cells as the values its Parquet type writes (null stays null). */
function physicalValues(type: ParquetType, cells: readonly Cell[]): readonly (Value | null)[] {
  switch (type) {
    case 'string':
      // usually every cell already is a string (or null): no copy then
      return cells.every((v) => v === null || typeof v === 'string')
        ? cells
        : cells.map((v) => (v === null ? null : String(v)));
    case 'int64':
      return cells.map(int64);
    case 'double':
      return cells.every((v) => v === null || typeof v === 'number')
        ? cells
        : cells.map((v) => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null));
    case 'boolean':
      return cells.map((v) => (typeof v === 'boolean' ? v : null));
    case 'date':
      return cells.map((v) => (typeof v === 'string' ? epochDay(v) : null));
    case 'timestamp':
      // a timestamp column holds only zoned ISO date-times (the column model's rule, temporal.ts)
      return cells.map((v) => (typeof v === 'string' ? epochMicrosValue(v) : null));
  }
}

function physicalOf(type: ParquetType): Physical {
  return schemaElement('', type).type;
}

/** The bytes a value of a fixed-size type adds to a page, as hyparquet-writer estimates them. */
const FIXED_BYTES: Record<Exclude<Physical, 'BYTE_ARRAY'>, number> = {
  BOOLEAN: 0.125,
  INT32: 4,
  INT64: 8,
  DOUBLE: 8,
};

/** The estimated bytes of a value (a string: its UTF-16 length, as the library estimates it). */
function estimate(physical: Physical): (v: Value) => number {
  if (physical === 'BYTE_ARRAY') return (v) => (v as string).length;
  const bytes = FIXED_BYTES[physical];
  return () => bytes;
}

interface Dictionary {
  readonly values: Value[];
  /** Per row: the value's index in `values`, -1 for null. */
  readonly indexes: Int32Array;
}

/** A dictionary key: -0 is its own entry (a Map would take it for +0 and turn one into the other). */
const NEGATIVE_ZERO = Symbol('-0');
const keyOf = (v: Value | null): Value | null | symbol => (v === 0 && Object.is(v, -0) ? NEGATIVE_ZERO : v);

/**
 * The column's dictionary when it pays: a sample of up to 1,000 values spread over the chunk must not
 * be more than 90 % distinct bytes, and the dictionary plus bit-packed indexes must at most halve the
 * plain bytes (BYTE_ARRAY values carry a 4-byte length in both).
 */
function dictionaryOf(values: readonly (Value | null)[], physical: Physical): Dictionary | undefined {
  if (physical === 'BOOLEAN') return undefined;
  const n = values.length;
  const size = estimate(physical);
  const prefix = physical === 'BYTE_ARRAY' ? 4 : 0;
  const sampled = new Set<Value | null | symbol>();
  const samples = Math.min(n, 1000);
  let distinct = 0;
  let total = 0;
  for (let i = 0; i < samples; i += 1) {
    const v = values[samples === 1 ? 0 : Math.floor((i * (n - 1)) / (samples - 1))] as Value | null;
    const bytes = v === null ? 0 : size(v) + prefix;
    const key = keyOf(v);
    if (!sampled.has(key)) {
      sampled.add(key);
      distinct += bytes;
    }
    total += bytes;
  }
  if (total === 0 || distinct / total > 0.9) return undefined;

  const dict: Value[] = [];
  const indexOf = new Map<Value | symbol, number>();
  const indexes = new Int32Array(n);
  let dictBytes = 0;
  let plainBytes = 0;
  let present = 0;
  // fixed-size values: once more than half the rows are distinct the dictionary cannot halve the bytes
  const hopeless = prefix === 0 ? n / 2 : Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i += 1) {
    const v = values[i] as Value | null;
    if (v === null) {
      indexes[i] = -1;
      continue;
    }
    present += 1;
    const bytes = size(v);
    plainBytes += bytes;
    const key = physical === 'DOUBLE' ? (keyOf(v) as Value | symbol) : v;
    let at = indexOf.get(key);
    if (at === undefined) {
      at = dict.length;
      dict.push(v);
      indexOf.set(key, at);
      dictBytes += bytes;
      if (dict.length > hopeless) return undefined;
    }
    indexes[i] = at;
  }
  const indexBytes = Math.ceil((present * Math.ceil(Math.log2(dict.length))) / 8);
  if (2 * (dictBytes + dict.length * prefix + indexBytes) > plainBytes + present * prefix) return undefined;
  return { values: dict, indexes };
}

/** Strings in UTF-8 byte order (code point order; a lone surrogate as U+FFFD, as it is written). */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  if (i === n) return a.length - b.length;
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  // below the surrogates, UTF-16 order is code point order
  if (x < 0xd800 && y < 0xd800) return x - y;
  if (i > 0) {
    const prev = a.charCodeAt(i - 1);
    if (prev >= 0xd800 && prev <= 0xdbff) i -= 1;
  }
  while (i < a.length && i < b.length) {
    const p = codePoint(a, i);
    const q = codePoint(b, i);
    if (p !== q) return p - q;
    i += p > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

function codePoint(s: string, i: number): number {
  const c = s.codePointAt(i) ?? 0xfffd;
  return c >= 0xd800 && c <= 0xdfff ? 0xfffd : c;
}

interface Bound {
  readonly bytes: Uint8Array;
  /** False when the bound was cut to `STATS_BYTES` (an absent flag means exact). */
  readonly exact?: false;
}

interface Statistics {
  readonly nulls: number;
  readonly nans?: number;
  readonly min?: Bound;
  readonly max?: Bound;
}

/** Min/max over the non-null values (NaN left out and counted), as Parquet bounds. */
function statistics(
  physical: Physical,
  values: readonly (Value | null)[],
  nulls: number,
  nans: number | undefined,
): Statistics {
  let min: Value | undefined;
  let max: Value | undefined;
  if (physical === 'BYTE_ARRAY') {
    for (const v of values as readonly (string | null)[]) {
      if (v === null) continue;
      if (min === undefined) min = max = v;
      else if (compareStrings(v, min as string) < 0) min = v;
      else if (compareStrings(v, max as string) > 0) max = v;
    }
  } else {
    for (const v of values) {
      if (v === null || (typeof v === 'number' && Number.isNaN(v))) continue;
      if (min === undefined) min = max = v;
      else if (v < (min as Value)) min = v;
      else if (v > (max as Value)) max = v;
    }
  }
  // signed zero: the min is -0 and the max +0
  if (min === 0) min = -0;
  if (max === 0) max = 0;
  return {
    nulls,
    ...(nans === undefined ? {} : { nans }),
    ...(min === undefined ? {} : { min: bound(physical, min, false) }),
    ...(max === undefined ? {} : { max: bound(physical, max, true) }),
  };
}

function bound(physical: Physical, v: Value, isMax: boolean): Bound {
  const sink = new ByteSink(8);
  switch (physical) {
    case 'BYTE_ARRAY': {
      const bytes = utf8Bytes(v as string);
      if (bytes.length <= STATS_BYTES) return { bytes };
      const cut = truncateUtf8(bytes, isMax);
      return cut === undefined ? { bytes } : { bytes: cut, exact: false };
    }
    case 'BOOLEAN':
      return { bytes: new Uint8Array([v ? 1 : 0]) };
    case 'INT32':
      sink.i32(v as number);
      break;
    case 'DOUBLE':
      sink.f64(v as number);
      break;
    case 'INT64':
      sink.i64(v as number | bigint);
      break;
  }
  return { bytes: sink.take() };
}

/**
 * A UTF-8 bound cut to `STATS_BYTES` on a code point boundary: a min is its prefix, a max is rounded
 * up by incrementing its last code point that has a successor that fits (undefined: keep it whole).
 */
function truncateUtf8(bytes: Uint8Array, isMax: boolean): Uint8Array | undefined {
  let end = STATS_BYTES;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end -= 1;
  if (!isMax) return bytes.slice(0, end);
  const codes = Array.from(new TextDecoder().decode(bytes.subarray(0, end)), (c) => c.codePointAt(0) ?? 0);
  for (let i = codes.length - 1; i >= 0; i -= 1) {
    end -= 1;
    while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end -= 1;
    const code = codes[i] as number;
    if (code === 0x10ffff) continue;
    const next = utf8Bytes(String.fromCodePoint(code === 0xd7ff ? 0xe000 : code + 1));
    if (end + next.length > STATS_BYTES) continue;
    const out = new Uint8Array(end + next.length);
    out.set(bytes.subarray(0, end));
    out.set(next, end);
    return out;
  }
  return undefined;
}

/** What the footer records of one column chunk. */
interface Chunk {
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

interface Group {
  readonly chunks: Chunk[];
  readonly rows: number;
  readonly uncompressed: number;
  readonly compressed: number;
}

/** Scratch buffers reused from column to column (their bytes are copied before the next use). */
class Scratch {
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

/** Writes one column chunk of a row group to `out`, whose first byte is at `base` in the file. */
function writeChunk(
  out: ByteSink,
  base: number,
  scratch: Scratch,
  column: ColumnDef,
  cells: readonly Cell[],
): Chunk {
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

  // a plain string column is written as UTF-8 once; each page is then a range of those bytes
  let offsets: Int32Array | undefined;
  if (!dict && physical === 'BYTE_ARRAY') {
    const plain = scratch.plain;
    plain.length = 0;
    offsets = scratch.offsetsFor(rows);
    for (let i = 0; i < rows; i += 1) {
      offsets[i] = plain.length;
      const v = values[i];
      if (v !== null) plain.utf8Prefixed(v as string);
    }
    offsets[rows] = plain.length;
  }
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
      raw = scratch.plain.buf.subarray(offsets[start] as number, offsets[end] as number);
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

export class ParquetEncoder implements PartEncoder {
  private readonly out = new ByteSink(1 << 20);
  private readonly scratch = new Scratch();
  private readonly groups: Group[] = [];
  /** Bytes handed out so far: the file offset of `out`'s first byte. */
  private written = 0;

  constructor(private readonly columns: readonly ColumnDef[]) {
    this.out.u32(MAGIC);
  }

  group(group: GroupCells): Uint8Array[] {
    if (group.rows > 0) {
      const at = this.out.length;
      const chunks = this.columns.map((c) =>
        writeChunk(this.out, this.written, this.scratch, c, group.of(c)),
      );
      this.groups.push({
        chunks,
        rows: group.rows,
        uncompressed: chunks.reduce((sum, c) => sum + c.uncompressed, 0),
        compressed: this.out.length - at,
      });
    }
    return this.take();
  }

  finish(): Uint8Array[] {
    const out = this.out;
    for (const chunk of this.groups.flatMap((g) => g.chunks)) {
      if (chunk.pages.length < 2) continue;
      const offset = this.written + out.length;
      new Compact(out).inStruct((c) =>
        c.listStruct(1, chunk.pages, (c, p) => c.i64(1, p.offset).i32(2, p.size).i64(3, p.firstRow)),
      );
      chunk.offsetIndex = { offset, length: this.written + out.length - offset };
    }
    const footerAt = out.length;
    this.footer(new Compact(out));
    out.u32(out.length - footerAt);
    out.u32(MAGIC);
    return this.take();
  }

  private take(): Uint8Array[] {
    if (this.out.length === 0) return [];
    const bytes = this.out.take();
    this.written += bytes.length;
    return [bytes];
  }

  private footer(thrift: Compact): void {
    thrift.inStruct((c) => {
      c.i32(1, 2);
      c.listStruct(2, [undefined, ...this.columns], (c, col) => {
        if (col === undefined) {
          c.binary(4, 'root').i32(5, this.columns.length);
          return;
        }
        const el = schemaElement(col.name, col.type);
        c.i32(1, TYPE[el.type]).i32(3, OPTIONAL).binary(4, el.name);
        if ('converted_type' in el) c.i32(6, CONVERTED[el.converted_type]);
        if ('logical_type' in el)
          // TIMESTAMP(isAdjustedToUTC = true, unit = MICROS)
          c.struct(10, (c) => c.struct(8, (c) => c.bool(1, true).struct(2, (c) => c.struct(2, () => {}))));
      });
      c.i64(
        3,
        this.groups.reduce((sum, g) => sum + g.rows, 0),
      );
      c.listStruct(4, this.groups, (c, g) => {
        c.listStruct(1, g.chunks, (c, k) => {
          c.i64(2, k.fileOffset);
          c.struct(3, (c) => {
            c.i32(1, TYPE[k.physical])
              .listI32(2, k.encodings)
              .listBinary(3, [k.name])
              .i32(4, SNAPPY)
              .i64(5, k.values)
              .i64(6, k.uncompressed)
              .i64(7, k.compressed)
              .i64(9, k.dataOffset)
              .i64(11, k.dictionaryOffset);
            const s = k.statistics;
            c.struct(12, (c) =>
              c
                .i64(3, s.nulls)
                .binary(5, s.max?.bytes)
                .binary(6, s.min?.bytes)
                .bool(7, s.max?.exact)
                .bool(8, s.min?.exact)
                .i64(9, s.nans),
            );
            const stats: [number, number, number][] = [];
            if (k.dictionaryOffset !== undefined) stats.push([DICTIONARY_PAGE, PLAIN, 1]);
            stats.push([DATA_PAGE_V2, k.pageEncoding, k.pages.length]);
            c.listStruct(13, stats, (c, [type, encoding, count]) =>
              c.i32(1, type).i32(2, encoding).i32(3, count),
            );
          });
          if (k.offsetIndex) c.i64(4, k.offsetIndex.offset).i32(5, k.offsetIndex.length);
        });
        c.i64(2, g.uncompressed).i64(3, g.rows).i64(6, g.compressed);
      });
      c.binary(6, PARQUET_OPTIONS.createdBy);
      c.listStruct(7, this.columns, (c) => c.struct(1, () => {}));
    });
  }
}
