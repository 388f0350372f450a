import { describe, expect, it } from 'vitest';
import { TopN } from '#core/export/top';

describe('TopN', () => {
  it('keeps the N largest, largest first, earlier row winning ties, whatever the arrival order', () => {
    const values = [5, 1, 9, 3, 9, 7, 2, 8, 0, 6];
    const top = new TopN(4);
    for (const [seq, value] of values.entries()) top.offer({ value, seq, row: { id: seq } });
    expect(top.sorted().map((e) => [e.value, e.seq])).toEqual([
      [9, 2],
      [9, 4],
      [8, 7],
      [7, 5],
    ]);
  });

  it('ignores non-finite values and resumes from a snapshot identically', () => {
    const a = new TopN(2);
    a.offer({ value: Number.NaN, seq: 0, row: {} });
    a.offer({ value: 3, seq: 1, row: {} });
    const b = new TopN(2, a.sorted());
    b.offer({ value: 4, seq: 2, row: {} });
    b.offer({ value: 1, seq: 3, row: {} });
    expect(b.sorted().map((e) => e.value)).toEqual([4, 3]);
  });
});
