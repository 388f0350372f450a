/** Chunk statistics: null and NaN counts, and min/max bounds in Parquet's byte order (strings cut to 16 bytes). */
import { ByteSink, utf8Bytes } from './parquet-bytes';
import { type Physical, STATS_BYTES } from './parquet-schema';
import type { Value } from './parquet-values';

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

export interface Statistics {
  readonly nulls: number;
  readonly nans?: number;
  readonly min?: Bound;
  readonly max?: Bound;
}

/** The running min and max of a column's non-null, non-NaN values (first seen wins a tie). */
export interface Bounds {
  min?: Value;
  max?: Value;
}

/** Takes `values[start, end)` into `b`. */
export function extendBounds(
  b: Bounds,
  physical: Physical,
  values: readonly (Value | null)[],
  start = 0,
  end = values.length,
): void {
  let { min, max } = b;
  if (physical === 'BYTE_ARRAY') {
    for (let i = start; i < end; i += 1) {
      const v = values[i] as string | null;
      if (v === null) continue;
      if (min === undefined) min = max = v;
      else if (compareStrings(v, min as string) < 0) min = v;
      else if (compareStrings(v, max as string) > 0) max = v;
    }
  } else {
    for (let i = start; i < end; i += 1) {
      const v = values[i] as Value | null;
      if (v === null || (typeof v === 'number' && Number.isNaN(v))) continue;
      if (min === undefined) min = max = v;
      else if (v < (min as Value)) min = v;
      else if (v > (max as Value)) max = v;
    }
  }
  b.min = min;
  b.max = max;
}

/** The chunk statistics of bounds gathered with `extendBounds`. */
export function statisticsOf(
  physical: Physical,
  bounds: Bounds,
  nulls: number,
  nans: number | undefined,
): Statistics {
  let { min, max } = bounds;
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
