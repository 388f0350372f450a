import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashSet53 } from '#core/run/hash-set';

/** A deterministic spread of 53-bit values (an LCG's two 32-bit draws). */
function spread(seed: number, count: number): number[] {
  let x = seed >>> 0;
  const next = () => {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    return x;
  };
  const out: number[] = [];
  for (let i = 0; i < count; i += 1) out.push((next() % 2_097_152) * 4_294_967_296 + next());
  return out;
}

/** Adds every value to the set and to a `Set`, asserting they agree at each step. */
function agree(set: HashSet53, ref: Set<number>, values: readonly number[]): void {
  for (const v of values) {
    const added = set.add(v);
    if (added === ref.has(v)) expect.fail(`add(${v}) answered ${added}, a Set says ${!ref.has(v)}`);
    ref.add(v);
  }
}

describe('HashSet53', () => {
  it('agrees with a Set over many 53-bit hashes, through several growths, including 0 and 2^53 − 1', () => {
    const set = new HashSet53();
    const ref = new Set<number>();
    const values = [0, 2 ** 53 - 1, 1, 2 ** 32, 2 ** 32 + 1, ...spread(123_456_789, 60_000)];
    for (let i = 0; i < 20_000; i += 1) values.push(values[i * 3] ?? 0);
    agree(set, ref, values);
    expect(set.size).toBe(ref.size);
    for (const v of values) expect(set.has(v)).toBe(true);
    expect(set.has(42)).toBe(ref.has(42));
    // hashes that share their low 32 bits still differ
    expect(set.add(7 * 2 ** 32 + 5)).toBe(true);
    expect(set.add(9 * 2 ** 32 + 5)).toBe(true);
    expect(set.has(11 * 2 ** 32 + 5)).toBe(false);
  });

  it('stays exact on all 53 bits in its 5-byte slots (2^20 and 2^21), in 5/8 of the bytes whole-hash slots took', () => {
    const set = new HashSet53();
    const ref = new Set<number>();
    const values = spread(987_654_321, 300_000);
    agree(set, ref, values);
    // 300k hashes: 2^20 slots of 5 bytes (was 2^20 × 8)
    expect(set.bytes).toBe(2 ** 20 * 5);
    // near neighbours of stored hashes in every bit (its top and its low half) are absent
    for (const v of values.slice(0, 2_000)) {
      for (const bit of [0, 1, 20, 31, 32, 33, 40, 51, 52]) {
        const flipped = Math.floor(v / 2 ** bit) % 2 === 0 ? v + 2 ** bit : v - 2 ** bit;
        expect(set.has(flipped)).toBe(ref.has(flipped));
      }
    }
    agree(set, ref, [
      0,
      2 ** 53 - 1,
      2 ** 32 - 1,
      2 ** 32,
      ...spread(5, 700_000),
      ...values.slice(0, 50_000),
    ]);
    expect(set.size).toBe(ref.size);
    // ~1M hashes: 2^21 slots of 5 bytes (was 16 MiB)
    expect(set.size).toBeGreaterThan(990_000);
    expect(set.bytes).toBe(2 ** 21 * 5);
    for (const v of ref) if (!set.has(v)) expect.fail(`${v} was added but is not found`);
    for (const v of spread(77, 20_000)) expect(set.has(v)).toBe(ref.has(v));
  });

  it('answers like a Set for hashes that share their top or low bits, across the compact doubling', () => {
    const set = new HashSet53();
    const ref = new Set<number>();
    agree(set, ref, spread(11, 270_000)); // compact from here on
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            hi: fc.integer({ min: 0, max: 2 ** 21 - 1 }),
            lo: fc.oneof(fc.constantFrom(0, 1, 2 ** 32 - 1), fc.integer({ min: 0, max: 2 ** 32 - 1 })),
          }),
          { maxLength: 200 },
        ),
        (parts) => {
          const hashes = parts.flatMap(({ hi, lo }) => [
            hi * 2 ** 32 + lo,
            (hi ^ 1) * 2 ** 32 + lo,
            hi * 2 ** 32 + ((lo ^ 1) >>> 0),
          ]);
          for (const h of hashes) expect(set.has(h)).toBe(ref.has(h));
          agree(set, ref, hashes);
          for (const h of hashes) expect(set.has(h)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
    expect(set.size).toBe(ref.size);
  });

  it('doubles early when a run of slots outgrows its byte, and at 2^21 slots does not remember what does not fit', () => {
    // hashes whose home slot is the same (home = top_k(hi) XOR mix_k(lo), hash-set.ts)
    const mix = (lo: number, bits: number) => Math.imul(lo, 0x9e3779b1) >>> (32 - bits);
    const sameHome = (bits: number, home: number, count: number) =>
      Array.from({ length: count }, (_, i) => {
        const lo = 1_000 + i;
        const hi = ((home ^ mix(lo, bits)) << (21 - bits)) | (i & 1 && bits < 21 ? 1 : 0);
        return hi * 2 ** 32 + lo;
      });
    const set = new HashSet53();
    const ref = new Set<number>();
    agree(set, ref, spread(3, 270_000));
    expect(set.bytes).toBe(2 ** 20 * 5);
    // 200 hashes on one home slot of the 2^20 table: a run longer than 127 slots
    agree(set, ref, sameHome(20, 12_345, 200));
    expect(set.bytes).toBe(2 ** 21 * 5);
    expect(set.size).toBe(ref.size);
    for (const v of ref) if (!set.has(v)) expect.fail(`${v} was added but is not found`);
    // 300 on one home slot of the 2^21 table: those past distance 254 are not remembered
    const crowded = sameHome(21, 777, 300);
    for (const h of crowded) expect(set.add(h)).toBe(true);
    const kept = crowded.filter((h) => set.has(h)).length;
    expect(kept).toBeGreaterThanOrEqual(200);
    expect(kept).toBeLessThan(300);
    expect(set.size).toBe(ref.size + kept);
  });
});
