import { describe, expect, it } from 'vitest';
import { fits, joinKind, kindOf, kindOfColumn } from '#core/export/columns';
import { flattenRow } from '#core/export/flatten';

describe('flattenRow', () => {
  it('flattens nested objects as parent_child, keeps arrays as JSON text and nulls as null', () => {
    const flat = flattenRow({
      id: 'a',
      owner: { id: 1, profile: { handle: '@x' } },
      tags: ['a', 'b'],
      empty: {},
      missing: null,
      metrics: { likes: 3, reach: null, weird: { x: 1 } },
    });
    expect(Object.fromEntries(flat.fields)).toEqual({
      id: 'a',
      owner_id: 1,
      owner_profile_handle: '@x',
      tags: '["a","b"]',
      empty: null,
      missing: null,
    });
    expect(Object.fromEntries(flat.metrics)).toEqual({ likes: 3, reach: null, weird: '{"x":1}' });
  });
});

describe('column kinds', () => {
  it('infers int64, double, date, boolean and string and widens, never narrows', () => {
    expect(kindOf(3)).toBe('int64');
    expect(kindOf(2 ** 63)).toBe('double');
    expect(kindOf(0.5)).toBe('double');
    expect(kindOf('2026-11-22')).toBe('date');
    expect(kindOf(true)).toBe('boolean');
    expect(joinKind('int64', 'double')).toBe('double');
    expect(joinKind('date', 'string')).toBe('string');
    expect(joinKind('int64', 'boolean')).toBe('string');
    expect(kindOfColumn([null, 1, 2.5, null])).toBe('double');
    expect(kindOfColumn([null, null])).toBe('null');
  });

  it('a row group fits a part only when every non-null column exists there with a type that holds it', () => {
    const part = [
      { name: 'likes', type: 'double' as const, role: 'metric' as const },
      { name: 'name', type: 'string' as const, role: 'id' as const },
    ];
    expect(fits(part, new Map([['likes', 'int64' as const]]))).toBe(true);
    expect(fits(part, new Map([['extra', 'null' as const]]))).toBe(true);
    expect(fits(part, new Map([['extra', 'string' as const]]))).toBe(false);
    const intPart = [{ name: 'likes', type: 'int64' as const, role: 'metric' as const }];
    expect(fits(intPart, new Map([['likes', 'double' as const]]))).toBe(false);
  });
});
