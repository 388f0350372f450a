/**
 * The byte-level pieces of the Parquet encoder (`parquet.ts`): a growable little-endian byte buffer,
 * UTF-8 written straight into it, the RLE / bit-packed hybrid of definition levels and dictionary
 * indexes, and Thrift's compact protocol for page headers and the footer. Only what a flat schema of
 * OPTIONAL columns needs; see https://parquet.apache.org/docs/file-format/ and the Thrift spec.
 */

const utf8 = new TextEncoder();
const TWO_32 = 4_294_967_296;

/** A growable byte buffer; `take()` copies its bytes out and empties it. */
export class ByteSink {
  buf: Uint8Array;
  private dv: DataView;
  length = 0;

  constructor(capacity = 1 << 16) {
    this.buf = new Uint8Array(capacity);
    this.dv = new DataView(this.buf.buffer);
  }

  ensure(more: number): void {
    const need = this.length + more;
    if (need <= this.buf.length) return;
    const next = new Uint8Array(Math.max(need, this.buf.length * 2));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.dv = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.length++] = v;
  }

  u32(v: number): void {
    this.ensure(4);
    this.dv.setUint32(this.length, v, true);
    this.length += 4;
  }

  i32(v: number): void {
    this.ensure(4);
    this.dv.setInt32(this.length, v, true);
    this.length += 4;
  }

  f64(v: number): void {
    this.ensure(8);
    this.dv.setFloat64(this.length, v, true);
    this.length += 8;
  }

  /** A signed 64-bit integer: a safe-integer number without going through BigInt, or a bigint. */
  i64(v: number | bigint): void {
    this.ensure(8);
    if (typeof v === 'bigint') {
      this.dv.setBigInt64(this.length, v, true);
    } else {
      const hi = Math.floor(v / TWO_32);
      this.dv.setUint32(this.length, v - hi * TWO_32, true);
      this.dv.setInt32(this.length + 4, hi, true);
    }
    this.length += 8;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** An unsigned varint (ULEB128) of a non-negative safe integer. */
  varint(v: number): void {
    while (v >= 0x80) {
      this.u8((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.u8(v);
  }

  /** `text` as UTF-8 (lone surrogates as U+FFFD, as TextEncoder writes them); returns its byte length. */
  utf8(text: string): number {
    const n = text.length;
    this.ensure(n * 3);
    const buf = this.buf;
    const at = this.length;
    for (let i = 0; i < n; i += 1) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) {
        const { written } = utf8.encodeInto(text, buf.subarray(at));
        this.length = at + written;
        return written;
      }
      buf[at + i] = c;
    }
    this.length = at + n;
    return n;
  }

  /** Overwrites the 4 bytes at `at` with `v` (a length written after what it measures). */
  setU32(at: number, v: number): void {
    this.dv.setUint32(at, v, true);
  }

  /** `text` as a PLAIN BYTE_ARRAY value: its UTF-8 byte length (4 bytes), then its UTF-8. */
  utf8Prefixed(text: string): void {
    const at = this.length;
    this.u32(0);
    this.setU32(at, this.utf8(text));
  }

  /** The bytes so far, as a view (valid until the next write). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  /** The bytes so far, copied into their own buffer; the sink is empty afterwards. */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.length);
    this.length = 0;
    return out;
  }
}

/** UTF-8 bytes of a string (for the few values that need their own array: statistics, names). */
export function utf8Bytes(text: string): Uint8Array {
  return utf8.encode(text);
}

/**
 * `count` values from `at` of `values` (each < 2^bitWidth) in the RLE / bit-packed hybrid encoding:
 * a run of 8 or more equal values is one RLE run, the rest go in bit-packed groups of 8.
 */
export function writeHybrid(
  sink: ByteSink,
  values: ArrayLike<number>,
  at: number,
  count: number,
  bitWidth: number,
): number {
  const start = sink.length;
  const end = at + count;
  let packedGroups = 0;
  let packedStart = 0;
  let i = at;
  while (i < end) {
    const first = values[i] as number;
    let run = 1;
    while (i + run < end && values[i + run] === first) run += 1;
    if (run >= 8) {
      if (packedGroups > 0) {
        writePacked(sink, values, packedStart, end, packedGroups, bitWidth);
        packedGroups = 0;
      }
      sink.varint(run * 2);
      for (let b = 0; b < (bitWidth + 7) >> 3; b += 1) sink.u8((first >> (b * 8)) & 0xff);
      i += run;
    } else {
      if (packedGroups === 0) packedStart = i;
      packedGroups += 1;
      i += 8;
    }
  }
  if (packedGroups > 0) writePacked(sink, values, packedStart, end, packedGroups, bitWidth);
  return sink.length - start;
}

function writePacked(
  sink: ByteSink,
  values: ArrayLike<number>,
  start: number,
  end: number,
  groups: number,
  bitWidth: number,
): void {
  sink.varint(groups * 2 + 1);
  if (bitWidth === 0) return;
  sink.ensure(groups * bitWidth);
  const mask = bitWidth >= 31 ? -1 : (1 << bitWidth) - 1;
  let acc = 0;
  let bits = 0;
  for (let i = start; i < start + groups * 8; i += 1) {
    const v = i < end ? (values[i] as number) & mask : 0;
    acc |= v << bits;
    bits += bitWidth;
    while (bits >= 8) {
      sink.u8(acc & 0xff);
      acc >>>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) sink.u8(acc & 0xff);
}

// Thrift compact protocol field types
const TRUE = 1;
const FALSE = 2;
const I32 = 5;
const I64 = 6;
const BINARY = 8;
const LIST = 9;
const STRUCT = 12;

/** A Thrift compact-protocol writer: fields are written in increasing id order within a struct. */
export class Compact {
  private last: number[] = [0];

  constructor(readonly sink: ByteSink) {}

  private field(id: number, type: number): void {
    const delta = id - (this.last.at(-1) as number);
    if (delta > 0 && delta <= 15) this.sink.u8((delta << 4) | type);
    else {
      this.sink.u8(type);
      this.zigzag(id);
    }
    this.last[this.last.length - 1] = id;
  }

  private zigzag(v: number | bigint): void {
    if (typeof v === 'bigint') {
      const z = v >= 0n ? v * 2n : -v * 2n - 1n;
      this.sink.varint(Number(z));
    } else this.sink.varint(v >= 0 ? v * 2 : -v * 2 - 1);
  }

  private listHeader(size: number, type: number): void {
    // an empty list carries no element type (0), as hyparquet-writer writes it
    if (size === 0) this.sink.u8(0);
    else if (size > 14) {
      this.sink.u8(0xf0 | type);
      this.sink.varint(size);
    } else this.sink.u8((size << 4) | type);
  }

  i32(id: number, v: number | undefined): this {
    if (v === undefined) return this;
    this.field(id, I32);
    this.zigzag(v);
    return this;
  }

  i64(id: number, v: number | bigint | undefined): this {
    if (v === undefined) return this;
    this.field(id, I64);
    this.zigzag(v);
    return this;
  }

  bool(id: number, v: boolean | undefined): this {
    if (v !== undefined) this.field(id, v ? TRUE : FALSE);
    return this;
  }

  binary(id: number, v: Uint8Array | string | undefined): this {
    if (v === undefined) return this;
    this.field(id, BINARY);
    this.bytesValue(typeof v === 'string' ? utf8Bytes(v) : v);
    return this;
  }

  private bytesValue(b: Uint8Array): void {
    this.sink.varint(b.length);
    this.sink.bytes(b);
  }

  /**
   * Fields encoded earlier by another `Compact` at its top level (where field ids count from 0, as in
   * a struct), copied as they are; `lastId` is the last one's id, from which the next field counts.
   */
  encoded(fields: Uint8Array, lastId: number): this {
    this.sink.bytes(fields);
    this.last[this.last.length - 1] = lastId;
    return this;
  }

  /** A struct field, its fields written by `body`. */
  struct(id: number, body: (c: this) => void): this {
    this.field(id, STRUCT);
    this.inStruct(body);
    return this;
  }

  /** A struct written where a struct value is expected (the top level, or a list element). */
  inStruct(body: (c: this) => void): this {
    this.last.push(0);
    body(this);
    this.sink.u8(0);
    this.last.pop();
    return this;
  }

  listI32(id: number, values: readonly number[]): this {
    this.field(id, LIST);
    this.listHeader(values.length, I32);
    for (const v of values) this.zigzag(v);
    return this;
  }

  listBinary(id: number, values: readonly string[]): this {
    this.field(id, LIST);
    this.listHeader(values.length, BINARY);
    for (const v of values) this.bytesValue(utf8Bytes(v));
    return this;
  }

  listStruct<T>(id: number, items: readonly T[], each: (c: this, item: T) => void): this {
    this.field(id, LIST);
    this.listHeader(items.length, STRUCT);
    for (const item of items) this.inStruct((c) => each(c, item));
    return this;
  }
}
