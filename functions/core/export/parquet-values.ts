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
export const FIXED_BYTES: Record<Exclude<Physical, 'BYTE_ARRAY'>, number> = {
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

export interface Dictionary {
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
export function dictionaryOf(values: readonly (Value | null)[], physical: Physical): Dictionary | undefined {
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
