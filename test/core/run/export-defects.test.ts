/**
 * Regressions of issue 22's export defects, at the level of one export step (the rules are in
 * docs/export.md): each test is a case the issue found by hand.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import { parseJson } from '#core/api/json';
import type { ApiRow } from '#core/api/types';
import { silentLog } from '#core/log';
import { exportReportStep } from '#core/run/export-step';
import type { ExportDeps, ExportStepResult } from '#core/run/types';
import { duckQuery, lit } from '../export/duck';
import { POSTS_TASK, pagedApi, postsConfig } from './fakes';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'defects-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const deps = (rows: readonly ApiRow[], over: Partial<ExportDeps> = {}): ExportDeps => ({
  api: pagedApi(rows, 10),
  sink: createFsSink(dir),
  log: silentLog,
  tuning: { rowGroupRows: 40 },
  ...over,
});

function outcomeOf(result: ExportStepResult) {
  if (result.status !== 'done') throw new Error(`expected done, got ${result.status}`);
  return result.outcome;
}

/** Every part of `format` in the posts partition, as a DuckDB file list literal. */
async function parts(format: 'parquet' | 'csv' | 'jsonl'): Promise<string> {
  const folder = join(dir, `exports/daily/posts/${format}/dt=2026-11-22`);
  const files = (await readdir(folder)).filter((f) => f.startsWith('part-')).sort();
  return `[${files.map((f) => lit(join(folder, f))).join(',')}]`;
}

describe('issue 22 regressions in the export step', () => {
  it('merges the writer’s type-break warnings with the loss guards’ warnings instead of replacing them', async () => {
    // likes as text breaks int64 (TYPE_BREAK); shares is never sent (METRIC_MISSING)
    const rows = [1, 2, 3].map((i) => ({ postId: `p${i}`, metrics: { likes: 'many', engagementRate: 0.1 } }));
    const outcome = outcomeOf(await exportReportStep(postsConfig(), POSTS_TASK, null, deps(rows)));
    expect(outcome.manifest.status).toBe('succeeded');
    expect(outcome.manifest.warnings?.map((w) => [w.code, w.column])).toEqual([
      ['TYPE_BREAK', 'likes'],
      ['METRIC_MISSING', 'shares'],
    ]);
  });

  it('exports postIds beyond 2^53 with every digit in Parquet, CSV and JSON Lines (the row-identity guard no longer throws)', async () => {
    const ids = [17841405822304914n, 17841405822304915n, 9223372036854775807n];
    const rows = ids.map((postId, i) => ({ postId, metrics: { likes: i, shares: 1, engagementRate: 0.5 } }));
    const config = postsConfig().output;
    const outcome = outcomeOf(
      await exportReportStep(
        { ...postsConfig(), output: { ...config, formats: ['parquet', 'csv', 'jsonl'] } },
        POSTS_TASK,
        null,
        deps(rows),
      ),
    );
    expect(outcome.manifest.status, outcome.manifest.error ?? '').toBe('succeeded');
    const want = ids.map((id) => ({ id: id.toString() }));
    const sql = (from: string) => `SELECT post_id::VARCHAR AS id FROM ${from} ORDER BY id`;
    expect(await duckQuery(sql(`read_parquet(${await parts('parquet')})`))).toEqual(want);
    expect(await duckQuery(sql(`read_csv(${await parts('csv')}, all_varchar=true)`))).toEqual(want);
    expect(await duckQuery(sql(`read_json(${await parts('jsonl')}, columns={post_id: 'VARCHAR'})`))).toEqual(
      want,
    );
  });

  it('keeps the value of a field named dt beside the dt= partition (DuckDB with hive partitioning)', async () => {
    const rows = [{ postId: 'p1', dt: '2026-11-05', metrics: { likes: 1, shares: 1, engagementRate: 0 } }];
    const outcome = outcomeOf(await exportReportStep(postsConfig(), POSTS_TASK, null, deps(rows)));
    expect(outcome.manifest.columns.map((c) => [c.name, c.apiName])).toContainEqual(['dt__2', 'dt']);
    const glob = lit(join(dir, 'exports/daily/posts/parquet/*/*.parquet'));
    expect(
      await duckQuery(`SELECT dt::VARCHAR AS dt, dt__2 FROM read_parquet(${glob}, hive_partitioning = true)`),
    ).toEqual([{ dt: '2026-11-22', dt__2: '2026-11-05' }]);
  });

  it('keeps a 4,000-key breakdown as one JSON column with a warning, and the next run of the report succeeds', async () => {
    const breakdown = Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`c${i}`, i]));
    const wide = [1, 2].map((i) => ({
      postId: `p${i}`,
      breakdown,
      metrics: { likes: i, shares: 1, engagementRate: 0 },
    }));
    const first = outcomeOf(await exportReportStep(postsConfig(), POSTS_TASK, null, deps(wide)));
    expect(first.manifest.status, first.manifest.error ?? '').toBe('succeeded');
    expect(first.manifest.columns.map((c) => c.name)).toEqual([
      'post_id',
      'breakdown',
      'window_start',
      'window_end',
      'likes',
      'shares',
      'engagement_rate',
    ]);
    expect(first.manifest.warnings).toEqual([
      expect.objectContaining({ code: 'OBJECT_AS_JSON', column: 'breakdown', count: 2 }),
    ]);
    const back = await duckQuery(
      `SELECT json_extract(breakdown, '$.c3999')::INT AS v FROM read_parquet(${await parts('parquet')})`,
    );
    expect(back).toEqual([{ v: 3999 }, { v: 3999 }]);
    const plain = [1, 2, 3, 4, 5, 6].map((i) => ({
      postId: `q${i}`,
      metrics: { likes: i, shares: 1, engagementRate: 0 },
    }));
    const next = outcomeOf(
      await exportReportStep(
        postsConfig(),
        {
          ...POSTS_TASK,
          runId: 'r2',
          window: { start: '2026-11-23', end: '2026-11-23', timezone: 'UTC' },
        },
        null,
        deps(plain),
      ),
    );
    expect(next.manifest.status, next.manifest.error ?? '').toBe('succeeded');
    expect(next.manifest.rowCount).toBe(6);
  });

  it('bounds objects by output.maxKeysPerObject', async () => {
    const rows = [
      { postId: 'p1', geo: { de: 1, fr: 2, it: 3 }, metrics: { likes: 1, shares: 1, engagementRate: 0 } },
    ];
    const config = postsConfig();
    const outcome = outcomeOf(
      await exportReportStep(
        { ...config, output: { ...config.output, maxKeysPerObject: 2 } },
        POSTS_TASK,
        null,
        deps(rows),
      ),
    );
    expect(outcome.manifest.columns.map((c) => c.name)).toContain('geo');
    expect(outcome.manifest.warnings?.[0]?.message).toContain('more than 2 keys');
  });

  it('writes numeric strings as numbers, warns of underflow and invalid text, and all three formats agree and read back', async () => {
    const rows = parseJson(
      '[{"postId":"a","name":"Caf\\u00e9 \\ud800 M\\u00fcller","metrics":{"likes":"12","shares":1,"engagementRate":3}},' +
        '{"postId":"b","name":"ok","metrics":{"likes":2,"shares":1,"engagementRate":1e-400}}]',
    ) as ApiRow[];
    const config = postsConfig();
    const outcome = outcomeOf(
      await exportReportStep(
        { ...config, output: { ...config.output, formats: ['parquet', 'csv', 'jsonl'] } },
        POSTS_TASK,
        null,
        deps(rows),
      ),
    );
    expect(outcome.manifest.status, outcome.manifest.error ?? '').toBe('succeeded');
    expect(outcome.manifest.warnings?.map((w) => [w.code, w.column, w.count])).toEqual(
      expect.arrayContaining([
        ['NUMERIC_TEXT', 'likes', 1],
        ['UNDERFLOW', 'engagement_rate', 1],
        ['INVALID_TEXT', 'name', 1],
      ]),
    );
    expect(outcome.manifest.totals).toMatchObject({ likes: 14 });
    const want = [
      { post_id: 'a', name: 'Café \ufffd Müller', likes: '12', rate: '3.0', raw: null },
      { post_id: 'b', name: 'ok', likes: '2', rate: null, raw: '1e-400' },
    ];
    const sql = (from: string) =>
      `SELECT post_id, name, likes::VARCHAR AS likes, engagement_rate::VARCHAR AS rate, engagement_rate__raw AS raw FROM ${from} ORDER BY post_id`;
    expect(await duckQuery(sql(`read_parquet(${await parts('parquet')})`))).toEqual(
      want.map((r) => ({ ...r, rate: r.rate === null ? null : '3.0' })),
    );
    expect(await duckQuery(sql(`read_csv(${await parts('csv')}, all_varchar=true)`))).toEqual(want);
    // DuckDB's read_json is strict: a lone-surrogate escape failed the whole file before
    expect(await duckQuery(sql(`read_json(${await parts('jsonl')})`))).toEqual(
      want.map((r) => ({ ...r, rate: r.rate === null ? null : '3.0' })),
    );
    // and with inference, a double column of whole values is still a DOUBLE
    const types = await duckQuery(
      `SELECT column_type FROM (DESCRIBE SELECT engagement_rate FROM read_csv(${await parts('csv')}))`,
    );
    expect(types).toEqual([{ column_type: 'DOUBLE' }]);
  });

  it('writes a lone surrogate inside an array as U+FFFD, valid JSON text, with INVALID_TEXT naming the column', async () => {
    const rows = parseJson(
      '[{"postId":"a","tags":["ab\\ud800c"],"metrics":{"likes":1,"shares":1,"engagementRate":0}}]',
    ) as ApiRow[];
    const outcome = outcomeOf(await exportReportStep(postsConfig(), POSTS_TASK, null, deps(rows)));
    expect(outcome.manifest.warnings?.map((w) => [w.code, w.column])).toEqual([['INVALID_TEXT', 'tags']]);
    const back = await duckQuery(
      `SELECT json_extract_string(tags, '$[0]') AS t FROM read_parquet(${await parts('parquet')})`,
    );
    expect(back).toEqual([{ t: 'ab\ufffdc' }]);
  });
});
