import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { humanise } from '#core/email/labels';
import { keyedRecord } from '#core/keyed-record';
import { ManifestSchema } from '#core/manifest';

/** Names from Object.prototype and a few plain ones. */
const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'likes', ''];
const keyArb = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 8 }));

describe('records keyed by outside names', () => {
  test.prop([fc.dictionary(keyArb, fc.oneof(fc.integer(), fc.constant(null)), { maxKeys: 8 })], {
    numRuns: 300,
    seed: 23,
  })('keep every key as an own property, "__proto__" included, through JSON', (record) => {
    const input: unknown = JSON.parse(JSON.stringify(record));
    const parsed = keyedRecord(z.nullable(z.number())).parse(input);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.entries(parsed)).toEqual(Object.entries(input as object));
  });

  it('rejects a bad value, naming its key', () => {
    const result = keyedRecord(z.number()).safeParse(JSON.parse('{"__proto__": "six"}'));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['__proto__']);
  });

  it('keeps the totals of metrics named like Object members in a manifest read back', () => {
    const report = {
      reportId: 'constructor',
      route: 'posts/performance',
      status: 'succeeded',
      rowCount: 2,
      pages: 1,
      columns: [],
      totals: JSON.parse('{"__proto__": 6, "constructor": 2, "toString": 4}'),
      error: null,
      files: [],
    };
    const manifest = {
      manifestVersion: 1,
      scheduleId: 's',
      runId: 'r',
      scheduledTime: '2026-11-23T06:00:00.000Z',
      window: { start: '2026-11-22', end: '2026-11-22', timezone: 'UTC' },
      startedAt: '2026-11-23T06:00:00.000Z',
      finishedAt: '2026-11-23T06:00:01.000Z',
      status: 'succeeded',
      reports: [report],
    };
    const read = ManifestSchema.parse(JSON.parse(JSON.stringify(manifest)));
    expect(read.reports[0]?.totals).toEqual(JSON.parse('{"__proto__": 6, "constructor": 2, "toString": 4}'));
    expect(Object.keys(read.reports[0]?.totals ?? {})).toEqual(['__proto__', 'constructor', 'toString']);
  });

  it('labels metrics named like Object members by their words, never by Object members', () => {
    expect(['constructor', 'toString', '__proto__', 'hasOwnProperty'].map(humanise)).toEqual([
      'Constructor',
      'To string',
      'Proto',
      'Has own property',
    ]);
  });
});
