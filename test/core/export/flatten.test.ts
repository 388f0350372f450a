import { describe, expect, it } from 'vitest';
import { flattenRow } from '#core/export/flatten';

describe('flattenRow', () => {
  it('keeps an object of more keys than the bound as one cell of JSON text (integers beyond 2^53 exact)', () => {
    const row = { postId: 'p', geo: { de: 1, fr: 12345678901234567891n, it: null }, small: { a: 1 } };
    const flat = flattenRow(row, 2);
    expect([...flat.fields]).toEqual([
      ['["postId"]', 'p'],
      ['["geo"]', '{"de":1,"fr":12345678901234567891,"it":null}'],
      ['["small","a"]', 1],
    ]);
  });

  it('reads metrics: null as no metrics, not as a field named metrics', () => {
    const flat = flattenRow({ postId: 'p', metrics: null });
    expect([...flat.fields.keys()]).toEqual(['["postId"]']);
    expect(flat.metrics.size).toBe(0);
  });
});
