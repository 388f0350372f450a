/**
 * Deterministic hashing used instead of stored state: every value the simulator serves is a pure
 * function of (seed, entity, index, salt), so data is never materialised and the same seed always
 * yields the same bytes.
 */

/** 32-bit integer hash of up to four integers (murmur3-style finaliser over a simple mix). */
export function hash32(a: number, b = 0, c = 0, d = 0): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ c, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15) ^ d, 0x165667b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A float in [0, 1) from the same inputs as `hash32`. */
export function unit(a: number, b = 0, c = 0, d = 0): number {
  return hash32(a, b, c, d) / 4294967296;
}

/** Stable 32-bit hash of a string (FNV-1a), for turning names into salts. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Picks one element of a non-empty list by a hash value. */
export function pick<T>(list: readonly T[], h: number): T {
  const v = list[h % list.length];
  if (v === undefined) throw new Error('pick from an empty list');
  return v;
}
