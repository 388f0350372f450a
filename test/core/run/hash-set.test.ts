import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashSet53, RecentHashes } from '#core/run/hash-set';

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

  it('empties with clear() and keeps its table', () => {
    const set = new HashSet53();
    const values = spread(42, 5_000);
    agree(set, new Set(), values);
    const bytes = set.bytes;
    set.clear();
    expect(set.size).toBe(0);
    for (const v of values) expect(set.has(v)).toBe(false);
    expect(set.bytes).toBe(bytes);
    agree(set, new Set(), values);
    expect(set.size).toBe(values.length);
  });
});

describe('RecentHashes', () => {
  it('for any sequence: a hash within the last `window` is found, one never added or last added over 2 × window ago is not', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2, 8, 64),
        // few distinct values, so they recur at every distance
        fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 2_000 }),
        fc.integer({ min: 0, max: 2 ** 21 - 1 }),
        (window, picks, hi) => {
          const recent = new RecentHashes(window);
          const last = new Map<number, number>();
          picks.forEach((pick, i) => {
            const hash = hi * 2 ** 32 + pick;
            const ago = last.has(hash) ? i - (last.get(hash) as number) : Number.POSITIVE_INFINITY;
            const added = recent.add(hash);
            if (ago <= window && added)
              expect.fail(`${hash} added ${ago} ago (window ${window}) was not found`);
            if (ago > 2 * window && !added)
              expect.fail(`${hash} last added ${ago} ago (window ${window}) was still found`);
            last.set(hash, i);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('holds the same memory however many hashes pass through (the guard window: 4 MiB)', () => {
    const recent = new RecentHashes(131_072);
    const values = spread(987_654_321, 1_100_000);
    const bytesAt: number[] = [];
    values.forEach((v, i) => {
      // distinct hashes: none is found
      if (!recent.add(v)) expect.fail(`${v} (the ${i}th) reported as seen`);
      if ((i + 1) % 100_000 === 0) bytesAt.push(recent.bytes);
    });
    // two tables of 2^18 slots × 8 bytes from 200k on
    expect(bytesAt.slice(1)).toEqual(Array(bytesAt.length - 1).fill(2 * 2 ** 18 * 8));
    // the last 131,072 are found again; the first ones long gone are not
    for (const v of values.slice(-1_000)) expect(recent.add(v)).toBe(false);
    for (const v of values.slice(0, 1_000)) expect(recent.add(v)).toBe(true);
  });
});
