/**
 * A column's cells as the values its Parquet type writes, and the dictionary a chunk is written with
 * when it pays.
 */
import type { Cell } from './flatten';
import { type ParquetType, type Physical, schemaElement } from './parquet-schema';
import { epochDay, epochMicrosValue } from './temporal';

/** A non-null value as written: strings, integers (a bigint only beyond 2^53), doubles, booleans. */
export type Value = string | number | bigint | boolean;

function int64(v: Cell): number | bigint | null {
  if (typeof v === 'bigint') return v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v;
  if (typeof v !== 'number' || !Number.isInteger(v)) return null;
  return Number.isSafeInteger(v) ? v : BigInt(v);
}

/** A column's cells as the values its Parquet type writes (null stays null). */
export function physicalValues(type: ParquetType, cells: readonly Cell[]): readonly (Value | null)[] {
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

export function physicalOf(type: ParquetType): Physical {
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
export function estimate(physical: Physical): (v: Value) => number {
  if (physical === 'BYTE_ARRAY') return (v) => (v as string).length;
  const bytes = FIXED_BYTES[physical];
  return () => bytes;
}

/** A dictionary key: -0 is its own entry (a Map would take it for +0 and turn one into the other). */
const NEGATIVE_ZERO = Symbol('-0');
const keyOf = (v: Value | null): Value | null | symbol => (v === 0 && Object.is(v, -0) ? NEGATIVE_ZERO : v);

/**
 * Whether a dictionary may pay for `values[start, end)` at all (false for booleans): a sample of up to
 * 1,000 values spread over them must not be more than 90 % distinct bytes. (The other half of the
 * test is `DictionaryBuilder.halves`.)
 */
export function sampleFavoursDictionary(
  values: readonly (Value | null)[],
  physical: Physical,
  start = 0,
  end = values.length,
): boolean {
  if (physical === 'BOOLEAN') return false;
  const n = end - start;
  const size = estimate(physical);
  const prefix = physical === 'BYTE_ARRAY' ? 4 : 0;
  const sampled = new Set<Value | null | symbol>();
  const samples = Math.min(n, 1000);
  let distinct = 0;
  let total = 0;
  for (let i = 0; i < samples; i += 1) {
    const v = values[start + (samples === 1 ? 0 : Math.floor((i * (n - 1)) / (samples - 1)))] as Value | null;
    const bytes = v === null ? 0 : size(v) + prefix;
    const key = keyOf(v);
    if (!sampled.has(key)) {
      sampled.add(key);
      distinct += bytes;
    }
    total += bytes;
  }
  return total > 0 && distinct / total <= 0.9;
}

/**
 * A column chunk's dictionary, built page by page as the chunk's pages are written
 * (`parquet-chunk.ts`); `halves()` and `pays()` apply the size test.
 */
export class DictionaryBuilder {
  private readonly dict: Value[] = [];
  private readonly indexOf = new Map<Value | symbol, number>();
  private indexes: Int32Array;
  private rows = 0;
  private dictBytes = 0;
  private plainBytes = 0;
  private present = 0;
  /** Past `limit` distinct values the dictionary cannot pay: building stops. */
  private given = false;
  private readonly size: (v: Value) => number;

  constructor(
    private readonly physical: Physical,
    capacity: number,
    private limit = Number.POSITIVE_INFINITY,
  ) {
    this.indexes = new Int32Array(Math.max(capacity, 16));
    this.size = estimate(physical);
  }

  add(values: readonly (Value | null)[], start: number, end: number): void {
    if (this.given) return;
    if (this.indexes.length < this.rows + end - start) {
      const grown = new Int32Array(Math.max(2 * this.indexes.length, this.rows + end - start));
      grown.set(this.indexes.subarray(0, this.rows));
      this.indexes = grown;
    }
    const { dict, indexOf, indexes, size, limit } = this;
    const double = this.physical === 'DOUBLE';
    let { present, plainBytes, dictBytes } = this;
    let at = this.rows;
    // the previous value's key and index: a run of one value needs no lookup
    let prev: Value | symbol | undefined;
    let prevIndex = -1;
    for (let i = start; i < end; i += 1, at += 1) {
      const v = values[i] as Value | null;
      if (v === null) {
        indexes[at] = -1;
        continue;
      }
      present += 1;
      const bytes = size(v);
      plainBytes += bytes;
      const key = double ? (keyOf(v) as Value | symbol) : v;
      if (key === prev) {
        indexes[at] = prevIndex;
        continue;
      }
      let index = indexOf.get(key);
      if (index === undefined) {
        index = dict.length;
        dict.push(v);
        indexOf.set(key, index);
        dictBytes += bytes;
        if (dict.length > limit) {
          this.given = true;
          return;
        }
      }
      indexes[at] = index;
      prev = key;
      prevIndex = index;
    }
    this.rows = at;
    this.present = present;
    this.plainBytes = plainBytes;
    this.dictBytes = dictBytes;
  }

  /** The entries so far, in index order (the array itself: later entries are appended to it). */
  get values(): Value[] {
    return this.dict;
  }

  /** The indexes of the rows added since the last `restart` (-1 for null). */
  get rowIndexes(): Int32Array {
    return this.indexes.subarray(0, this.rows);
  }

  /** Lifts the distinct-value limit (the dictionary was chosen: it grows as long as it pays). */
  unlimit(): void {
    this.limit = Number.POSITIVE_INFINITY;
  }

  /** Forgets the rows' indexes (not the entries nor the byte counts): the next rows start at 0. */
  restart(): void {
    this.rows = 0;
  }

  /** Whether the dictionary plus bit-packed indexes still at most halve the plain bytes so far. */
  pays(): boolean {
    const prefix = this.physical === 'BYTE_ARRAY' ? 4 : 0;
    const { dict, present } = this;
    const indexBytes = Math.ceil((present * Math.ceil(Math.log2(dict.length))) / 8);
    if (this.given) return false;
    return 2 * (this.dictBytes + dict.length * prefix + indexBytes) <= this.plainBytes + present * prefix;
  }

  /**
   * Whether the dictionary at most halves the plain bytes of the rows added (BYTE_ARRAY values carry
   * a 4-byte length in both); fixed-size values: also at most half the rows distinct.
   */
  halves(): boolean {
    if (this.physical !== 'BYTE_ARRAY' && this.dict.length > this.rows / 2) return false;
    return this.pays();
  }
}
