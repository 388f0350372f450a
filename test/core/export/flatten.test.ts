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

  it('keeps a field or metrics value no double holds (1e400, 1e-400) as one cell of its text, not an object', () => {
    // found by test/e2e/export-properties.test.ts: {"":1e-400} became a column "_text"
    const row = parseJson('{"postId":"p","":1e-400,"big":{"n":1e400},"metrics":{"likes":1e400}}') as ApiRow;
    const flat = flattenRow(row);
    expect([...flat.fields]).toEqual([
      ['["postId"]', 'p'],
      ['[""]', '1e-400'],
      ['["big","n"]', '1e400'],
    ]);
    expect([...flat.metrics]).toEqual([['likes', '1e400']]);
    expect(flattenRow(parseJson('{"metrics":1e400,"x":[1]}') as ApiRow).metrics.size).toBe(0);
  });
});
