import { describe, expect, it } from 'vitest';
import { parseJson } from '#core/api/json';
import type { ApiRow } from '#core/api/types';
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

  it('takes a number the parser kept as text for a cell, not for an object with a text field', () => {
    const row = parseJson(
      '{"":1e-400,"postId":"p","metrics":{"reach":1e400},"pad":12345678901234567}',
    ) as ApiRow;
    const flat = flattenRow(row);
    expect(flat.fields.get('[""]')).toBe('1e-400');
    expect(flat.metrics.get('reach')).toBe('1e400');
  });
});
