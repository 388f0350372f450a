import { describe, expect, it } from 'vitest';
import { NumberText, parseJson, toJsonText } from '#core/api/json';
import { flattenRow } from '#core/export/flatten';
import { type ColumnModel, columnDefs, fieldKey, type ModelContext, planModel } from '#core/export/model';
import { baseName, NameAllocator, snakeCase } from '#core/export/names';
import { epochDay, epochMicros, isCalendarDate } from '#core/export/temporal';
import { fieldType, metricType } from '#core/export/type-rule';
import { breakOf, fitted } from '#core/export/values';

const key = (...path: string[]) => fieldKey(path);

describe('flattenRow', () => {
  it('keys nested fields by their whole API path, keeps arrays as JSON text and nulls as null', () => {
    const flat = flattenRow({
      id: 'a',
      owner: { id: 1, profile: { handle: '@x' } },
      owner_id: 'top-level',
      tags: ['a', 'b'],
      empty: {},
      missing: null,
      metrics: { likes: 3, reach: null, weird: { x: 1 } },
    });
    expect(Object.fromEntries(flat.fields)).toEqual({
      [key('id')]: 'a',
      [key('owner', 'id')]: 1,
      [key('owner', 'profile', 'handle')]: '@x',
      [key('owner_id')]: 'top-level',
      [key('tags')]: '["a","b"]',
      [key('empty')]: null,
      [key('missing')]: null,
    });
    expect(Object.fromEntries(flat.metrics)).toEqual({ likes: 3, reach: null, weird: '{"x":1}' });
  });
});

describe('type rule', () => {
  it('types metrics by name: averages, rates, ratios, shares, ROI and money are DOUBLE, counters INT64', () => {
    for (const m of [
      'avgWatchTime',
      'roi',
      'paidAdSpend',
      'cost',
      'engagementRate',
      'shareOfVoice',
      'revenue',
    ])
      expect([m, metricType(m)]).toEqual([m, 'double']);
    for (const m of ['likes', 'shares', 'paidImpressions', 'comments', 'trackingLinksClicks', 'reach'])
      expect([m, metricType(m)]).toEqual([m, 'int64']);
  });

  it('types a field by its values when it enters the model; ids are always text', () => {
    expect(fieldType('followers', [1, null, 2])).toBe('int64');
    expect(fieldType('avgAge', [30])).toBe('double');
    expect(fieldType('score', [1, 2.5])).toBe('double');
    expect(fieldType('publishedAt', ['2026-11-20T10:00:00Z'])).toBe('timestamp');
    expect(fieldType('startDate', ['2026-11-20'])).toBe('date');
    expect(fieldType('startDate', ['2026-02-30'])).toBe('string');
    expect(fieldType('verified', [true, false])).toBe('boolean');
    expect(fieldType('postId', [123])).toBe('string');
    expect(fieldType('caption', [null])).toBe('string');
    expect(fieldType('mixed', [1, 'a'])).toBe('string');
  });
});

describe('dates and date-times', () => {
  it('only real calendar dates are dates', () => {
    for (const d of ['2026-02-30', '0000-00-00', '2026-13-45', '2025-02-29', '2026-1-01'])
      expect([d, isCalendarDate(d), epochDay(d)]).toEqual([d, false, null]);
    expect(epochDay('1970-01-02')).toBe(1);
    expect(epochDay('2024-02-29')).toBe(19_782);
  });

  it('ISO date-times with a zone are microseconds since the epoch; without a zone they are text', () => {
    expect(epochMicros('1970-01-01T00:00:01.000001Z')).toBe(1_000_001n);
    expect(epochMicros('2026-11-20T10:00:00+01:00')).toBe(BigInt(Date.UTC(2026, 10, 20, 9)) * 1000n);
    expect(epochMicros('2026-11-20T10:00:00')).toBeNull();
    expect(epochMicros('2026-02-30T10:00:00Z')).toBeNull();
    expect(epochMicros('2026-11-20T10:00:00.1234567Z')).toBeNull();
  });

  it('reads the common `…T…Z` shape (its fast path) exactly as Date does, every fraction length', () => {
    // an independent reference: Date's own parse (milliseconds) plus the digits past them
    const reference = (text: string): bigint => {
      const frac = /\.(\d+)Z$/.exec(text)?.[1] ?? '';
      const ms = Date.parse(`${text.slice(0, 19)}Z`);
      return BigInt(ms) * 1000n + BigInt(frac.padEnd(6, '0'));
    };
    let ms = -2_208_988_800_000; // 1900-01-01
    for (let i = 0; i < 5_000; i += 1) {
      ms += 1_000_003_123 + i * 7_919; // irregular steps through 1900 … ~2060
      const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
      for (const text of [
        iso,
        iso.replace(/\.\d+Z$/, 'Z'),
        iso.replace(/(\.\d)\d+Z$/, '$1Z'),
        iso.replace(/Z$/, '456Z'),
      ]) {
        expect(epochMicros(text), text).toBe(reference(text));
      }
    }
    for (const text of ['2024-02-29T23:59:59Z', '2000-02-29T00:00:00.5Z', '1970-01-01T00:00:00Z']) {
      expect(epochMicros(text), text).toBe(reference(text));
    }
    for (const bad of [
      '2023-02-29T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:60:00Z',
      '2026-01-01T00:00:00.Z',
      '2026-1-01T00:00:00Z',
      '2026-01-01T00:00:0xZ',
    ]) {
      expect(epochMicros(bad), bad).toBeNull();
      expect(breakOf('timestamp', bad), bad).toBe('TYPE_BREAK');
    }
  });
});

describe('values that break a type', () => {
  it('names why a value does not fit, and never rounds one that does not', () => {
    expect(breakOf('int64', 1.5)).toBe('TYPE_BREAK');
    expect(breakOf('int64', 2n ** 63n)).toBe('LONG_INTEGER');
    expect(breakOf('int64', 2n ** 62n)).toBeNull();
    expect(breakOf('double', 12345678901234567891n)).toBe('LONG_INTEGER');
    expect(breakOf('double', 2n ** 60n)).toBeNull();
    expect(breakOf('double', '1e400')).toBe('NON_FINITE');
    expect(breakOf('date', '2026-02-30')).toBe('TYPE_BREAK');
    expect(fitted('int64', 1.5)).toBeNull();
    expect(fitted('string', 12)).toBe('12');
    expect(fitted('string', 9007199254740993n)).toBe('9007199254740993');
  });
});

describe('names', () => {
  it('snake_cases API names', () => {
    expect(snakeCase('paidImpressions')).toBe('paid_impressions');
    expect(snakeCase('CTR')).toBe('ctr');
    expect(snakeCase('trackingLinksClicks')).toBe('tracking_links_clicks');
    expect(snakeCase('=HYPERLINK("x")')).toBe('_hyperlink__x__');
  });

  it('never hands out a name twice, case-insensitively', () => {
    const names = new NameAllocator(['likes']);
    expect([names.take('likes'), names.take('Likes'), names.take('likes__2'), names.take('x')]).toEqual([
      'likes__2',
      'Likes__3',
      'likes__2__2',
      'x',
    ]);
  });
});

describe('planModel', () => {
  const ctx: ModelContext = {
    idFields: ['postId'],
    metrics: ['likes', 'avgWatchTime'],
    naming: 'snake_case',
    overrides: {},
  };
  const group = (fields: Record<string, unknown[]>, metrics: Record<string, unknown[]> = {}) => ({
    fields: new Map(Object.entries(fields).map(([k, v]) => [fieldKey(k.split('.')), v as never[]])),
    metrics: new Map(Object.entries(metrics).map(([k, v]) => [k, v as never[]])),
  });

  it('first model: fields (id fields first), window, metrics; names to window, metrics, then fields', () => {
    const model = planModel(
      null,
      ctx,
      group({ 'creator.name': ['a'], postId: ['1'], likes: [1], window_start: ['x'] }),
    );
    expect(model.columns.map((c) => [c.name, c.type])).toEqual([
      ['post_id', 'string'],
      ['creator_name', 'string'],
      ['likes__2', 'int64'],
      ['window_start__2', 'string'],
      ['window_start', 'date'],
      ['window_end', 'date'],
      ['likes', 'int64'],
      ['avg_watch_time', 'double'],
    ]);
  });

  it('turns control characters in an API name into `_` (a line break in a CSV header stops DuckDB), nothing else', () => {
    expect(baseName(['\n'], 'api')).toBe('_');
    expect(baseName(['a\tb', 'c\r\nd'], 'api')).toBe('a_b_c__d');
    expect(baseName(['\u0000\u001f\u007f\u0080\u009f'], 'api')).toBe('_____');
    expect(baseName(['Ünïcode ✓ ', '\u00a0'], 'api')).toBe('Ünïcode ✓ _\u00a0');
    expect(baseName(['line\nbreak'], 'snake_case')).toBe('line_break');
  });

  it('never names a data column after the partition key: a field dt (any case) is dt__2', () => {
    const model = planModel(null, ctx, group({ postId: ['1'], dt: ['2026-11-05'], DT: ['x'] }));
    expect(model.columns.slice(0, 3).map((c) => c.name)).toEqual(['post_id', 'dt__2', 'dt__3']);
    const later = planModel(model, { ...ctx, naming: 'api' }, group({ Dt: ['y'] }));
    expect(later.columns.at(-1)?.name).toBe('Dt__4');
  });

  it('only appends: a later field goes to the end, and existing names and types stay', () => {
    const first = planModel(null, ctx, group({ postId: ['1'] }, { likes: [1], avgWatchTime: [2] }));
    const second = planModel(
      first,
      ctx,
      group({ postId: ['1'], publishedAt: ['2026-11-20T10:00:00Z'] }, { likes: [1], avgWatchTime: [2.5] }),
    );
    expect(second.columns.slice(0, first.columns.length)).toEqual(first.columns);
    expect(second.columns.at(-1)).toMatchObject({ name: 'published_at', type: 'timestamp' });
    expect(planModel(second, ctx, group({ postId: ['2'] }))).toBe(second);
  });

  it('adds a raw text column for a value that breaks a type, and takes overrides for new columns', () => {
    const model = planModel(
      null,
      { ...ctx, overrides: { avgWatchTime: 'int64' } },
      group({}, { likes: [1, 1.5] }),
    );
    expect(model.columns.map((c) => [c.name, c.type])).toEqual([
      ['window_start', 'date'],
      ['window_end', 'date'],
      ['likes', 'int64'],
      ['avg_watch_time', 'int64'],
      ['likes__raw', 'string'],
    ]);
    const defs = columnDefs(model as ColumnModel);
    expect(defs.at(-1)).toMatchObject({ role: 'raw', key: 'likes', of: { type: 'int64', metric: true } });
  });
});

describe('parseJson', () => {
  it('keeps every digit of long integers and the text of numbers a double cannot hold', () => {
    const v = parseJson('{"a":9007199254740993,"b":12345678901234567891,"c":1e400,"d":1.5,"e":[1,"x"]}');
    expect(v).toEqual({
      a: 9007199254740993n,
      b: 12345678901234567891n,
      c: new NumberText('1e400'),
      d: 1.5,
      e: [1, 'x'],
    });
  });

  it('finds long numbers wherever a number token can stand', () => {
    expect(parseJson('[12345678901234567891, -12345678901234567891]')).toEqual([
      12345678901234567891n,
      -12345678901234567891n,
    ]);
    expect(parseJson('{"a" : \n 12345678901234567891,"b":[1, 2e308]}')).toEqual({
      a: 12345678901234567891n,
      b: [1, new NumberText('2e308')],
    });
  });

  it('treats __proto__ and constructor as ordinary keys', () => {
    const v = parseJson('{"__proto__":{"x":1},"constructor":2,"":3,"n":12345678901234567}') as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__', 'constructor', '', 'n']);
    expect(Object.getOwnPropertyDescriptor(v, '__proto__')?.value).toEqual({ x: 1 });
  });

  it('is JSON.parse on every other text, and rejects what JSON.parse rejects', () => {
    const text = '{"a":"\\u00e9\\n","b":[true,false,null],"c":-0.5e-3}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
    expect(parseJson(`${text.slice(0, -1)},"d":12345678901234567890}`)).toMatchObject(JSON.parse(text));
    expect(() => parseJson('{"a":12345678901234567890,}')).toThrow(SyntaxError);
    expect(() => parseJson('{"a":12345678901234567890} x')).toThrow(SyntaxError);
  });

  it('writes bigints back as their digits', () => {
    expect(toJsonText([1n, { a: 12345678901234567891n }])).toBe('[1,{"a":12345678901234567891}]');
  });
});
