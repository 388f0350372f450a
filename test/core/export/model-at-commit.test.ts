/**
 * The model at commit (issue 22): a writer stores its grown model only when the export is complete,
 * merged into the newest stored version, and rewrites the parts written before the model grew, so
 * every part of a partition carries the same columns — read back by DuckDB without union_by_name.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import type { ApiRow } from '#core/api/types';
import { mergeModel } from '#core/export/model-merge';
import { memoryModelStore } from '#core/export/model-store';
import { ReportWriter, type ReportWriterOptions } from '#core/export/report-writer';
import { duckQuery, lit } from './duck';

const WINDOW = { start: '2026-11-16', end: '2026-11-22', timezone: 'UTC' };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'model-commit-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function options(over: Partial<ReportWriterOptions> = {}): ReportWriterOptions {
  return {
    sink: createFsSink(dir),
    models: memoryModelStore(),
    naming: 'api',
    overrides: {},
    window: WINDOW,
    formats: ['parquet', 'csv', 'jsonl'],
    folders: { parquet: 'p/', csv: 'c/', jsonl: 'j/' },
    idFields: ['postId'],
    metrics: ['likes', 'avgWatchTime'],
    topBy: undefined,
    topN: 0,
    rowGroupRows: 2,
    maxRowsPerPart: 1000,
    maxPartBytes: 1 << 30,
    ...over,
  };
}

const EARLY: ApiRow[] = [
  {
    postId: 'a',
    caption: 'comma, "quote"\r\nline',
    postedAt: '2026-11-20T10:00:00.123456+01:00',
    day: '2026-02-28',
    metrics: { likes: 9007199254740993n, avgWatchTime: -0 },
  },
  { postId: 'b', caption: '', postedAt: null, day: null, metrics: { likes: null, avgWatchTime: 12 } },
];
const LATE: ApiRow[] = [{ postId: 'c', caption: 'x', late: true, metrics: { likes: 3, avgWatchTime: 0.5 } }];

async function writeAll(rows: readonly ApiRow[], o: ReportWriterOptions) {
  const writer = new ReportWriter(o);
  for (const row of rows) await writer.add(row);
  return { writer, files: await writer.finish() };
}

describe('the model at commit', () => {
  it('rewrites the parts written before the model grew: every part has the model’s columns, every value intact', async () => {
    const models = memoryModelStore();
    const { files } = await writeAll([...EARLY, ...LATE], options({ models }));
    const stored = await models.load();
    expect(stored?.model.columns.map((c) => c.name)).toEqual([
      'postId',
      'caption',
      'postedAt',
      'day',
      'window_start',
      'window_end',
      'likes',
      'avgWatchTime',
      'late',
    ]);
    expect(files.every((f) => f.columns === 9)).toBe(true);
    const list = (dirName: string) =>
      `[${files
        .filter((f) => f.key.startsWith(dirName))
        .map((f) => lit(join(dir, f.key)))
        .join(',')}]`;
    const cols = `postId, caption, postedAt::VARCHAR AS postedAt, day::VARCHAR AS day, likes::VARCHAR AS likes, avgWatchTime::VARCHAR AS w, late::VARCHAR AS late`;
    // no union_by_name: the readers' defaults see every column in every part
    const pq = await duckQuery(`SELECT ${cols} FROM read_parquet(${list('p/')}) ORDER BY postId`);
    expect(pq).toEqual([
      {
        postId: 'a',
        caption: 'comma, "quote"\r\nline',
        postedAt: '2026-11-20 09:00:00.123456+00',
        day: '2026-02-28',
        likes: '9007199254740993',
        w: '-0.0',
        late: null,
      },
      { postId: 'b', caption: '', postedAt: null, day: null, likes: null, w: '12.0', late: null },
      { postId: 'c', caption: 'x', postedAt: null, day: null, likes: '3', w: '0.5', late: 'true' },
    ]);
    const csv = await duckQuery(
      `SELECT postId, caption, postedAt, likes, avgWatchTime AS w, late FROM read_csv(${list('c/')}, all_varchar=true) ORDER BY postId`,
    );
    expect(csv).toEqual([
      {
        postId: 'a',
        caption: 'comma, "quote"\r\nline',
        postedAt: '2026-11-20T10:00:00.123456+01:00',
        likes: '9007199254740993',
        w: '-0.0',
        late: null,
      },
      { postId: 'b', caption: null, postedAt: null, likes: null, w: '12.0', late: null },
      { postId: 'c', caption: 'x', postedAt: null, likes: '3', w: '0.5', late: 'true' },
    ]);
    const jl = await duckQuery(
      `SELECT postId, caption, postedAt, likes::VARCHAR AS likes, late::VARCHAR AS late FROM read_json(${list('j/')}, columns={postId:'VARCHAR',caption:'VARCHAR',postedAt:'VARCHAR',likes:'BIGINT',late:'BOOLEAN'}) ORDER BY postId`,
    );
    expect(jl).toEqual([
      {
        postId: 'a',
        caption: 'comma, "quote"\r\nline',
        postedAt: '2026-11-20T10:00:00.123456+01:00',
        likes: '9007199254740993',
        late: null,
      },
      { postId: 'b', caption: '', postedAt: null, likes: null, late: null },
      { postId: 'c', caption: 'x', postedAt: null, likes: '3', late: 'true' },
    ]);
  });

  it('stores no grown model when the export fails (abort)', async () => {
    const models = memoryModelStore();
    await writeAll(EARLY, options({ models }));
    const before = await models.load();
    const writer = new ReportWriter(options({ models }));
    for (const row of LATE) await writer.add(row);
    await writer.flush();
    await writer.abort();
    expect(await models.load()).toEqual(before);
  });

  it('merges a model another window stored meanwhile: both windows’ columns, one order', async () => {
    const models = memoryModelStore();
    await writeAll(EARLY, options({ models }));
    const a = new ReportWriter(options({ models, folders: { parquet: 'pa/', csv: 'ca/', jsonl: 'ja/' } }));
    const b = new ReportWriter(options({ models, folders: { parquet: 'pb/', csv: 'cb/', jsonl: 'jb/' } }));
    await a.add({ postId: 'x', onlyA: 1, metrics: {} });
    await b.add({ postId: 'y', onlyB: 'b', metrics: {} });
    await a.finish();
    const filesB = await b.finish();
    const names = (await models.load())?.model.columns.map((c) => c.name);
    expect(names?.slice(-2)).toEqual(['onlyA', 'onlyB']);
    expect(filesB.every((f) => f.columns === names?.length)).toBe(true);
    const back = await duckQuery(
      `SELECT * FROM read_parquet(${lit(join(dir, filesB.find((f) => f.format === 'parquet')?.key ?? ''))})`,
    );
    expect(Object.keys(back[0] ?? {})).toEqual(names);
    expect(back[0]).toMatchObject({ postId: 'y', onlyA: null, onlyB: 'b' });
  });

  it('mergeModel keeps the stored model when it already has every column', () => {
    const m = { modelVersion: 1 as const, naming: 'api' as const, columns: [] };
    expect(mergeModel(m, m)).toBe(m);
  });
});
