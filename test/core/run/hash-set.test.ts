import { describe, expect, it } from 'vitest';
import { HashSet53 } from '#core/run/hash-set';

describe('HashSet53', () => {
  it('agrees with a Set over many 53-bit hashes, through several growths, including 0 and 2^53 − 1', () => {
    const set = new HashSet53();
    const ref = new Set<number>();
    // a deterministic spread of values: every slot-picking bit pattern, and many repeats
    let x = 123_456_789;
    const next = () => {
      x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
      return x;
    };
    const values = [0, 2 ** 53 - 1, 1, 2 ** 32, 2 ** 32 + 1];
    for (let i = 0; i < 60_000; i += 1) values.push((next() % 2_097_152) * 4_294_967_296 + next());
    for (let i = 0; i < 20_000; i += 1) values.push(values[i * 3] ?? 0);
    for (const v of values) {
      expect(set.add(v)).toBe(!ref.has(v));
      ref.add(v);
    }
    expect(set.size).toBe(ref.size);
    for (const v of values) expect(set.has(v)).toBe(true);
    expect(set.has(42)).toBe(ref.has(42));
    // hashes that share their low 32 bits still differ
    expect(set.add(7 * 2 ** 32 + 5)).toBe(true);
    expect(set.add(9 * 2 ** 32 + 5)).toBe(true);
    expect(set.has(11 * 2 ** 32 + 5)).toBe(false);
  });
});
