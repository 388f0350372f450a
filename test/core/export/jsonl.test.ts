import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import { parseJson } from '#core/api/json';
import { memoryModelStore } from '#core/export/model-store';
import { ReportWriter } from '#core/export/report-writer';
import { duckQuery, lit } from './duck';

const WINDOW = { start: '2026-11-16', end: '2026-11-22', timezone: 'UTC' };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'jsonl-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(rows: readonly Record<string, unknown>[]) {
  const writer = new ReportWriter({
    sink: createFsSink(dir),
    models: memoryModelStore(),
    naming: 'snake_case',
    overrides: {},
    window: WINDOW,
    formats: ['jsonl', 'parquet'],
    folders: { jsonl: 'j/', parquet: 'p/' },
    idFields: ['postId'],
    metrics: ['likes', 'avgWatchTime'],
    topBy: undefined,
    topN: 0,
    rowGroupRows: 2,
    maxRowsPerPart: 1000,
    maxPartBytes: 1 << 30,
  });
  for (const row of rows) await writer.add(row);
  return { writer, files: await writer.finish() };
}

describe('JSON Lines (gzip) through the format registry', () => {
  it('writes one object per row, keys in model order, the same cells as Parquet', async () => {
    const rows = [
      { postId: 'a', caption: 'say "hi"\n=1+1', metrics: { likes: 9007199254740993n, avgWatchTime: 1.5 } },
      { postId: 'b', publishedAt: '2026-11-20T10:00:00Z', metrics: { likes: 2, avgWatchTime: null } },
      { postId: 'c', metrics: { likes: 'n/a' } },
    ];
    const { writer, files } = await write(rows);
    const parts = files.filter((f) => f.format === 'jsonl');
    // the third row's text in an integer column adds likes__raw to the model: a new part, and at
    // commit the first part is rewritten to the model's 8 columns
    expect(parts.map((f) => [f.key, f.rows, f.columns])).toEqual([
      ['j/part-00000.jsonl.gz', 2, 8],
      ['j/part-00001.jsonl.gz', 1, 8],
    ]);
    let text = '';
    for (const f of parts) text += gunzipSync(await readFile(join(dir, f.key))).toString('utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      '{"post_id":"a","caption":"say \\"hi\\"\\n=1+1","published_at":null,"window_start":"2026-11-16","window_end":"2026-11-22","likes":9007199254740993,"avg_watch_time":1.5,"likes__raw":null}',
    );
    const objects = lines.map((l) => parseJson(l) as Record<string, unknown>);
    expect(objects.map((o) => Object.keys(o).length)).toEqual([8, 8, 8]);
    expect(objects[2]).toMatchObject({ likes: null, likes__raw: 'n/a', published_at: null });
    expect(writer.columns().map((c) => c.name)).toEqual([
      'post_id',
      'caption',
      'published_at',
      'window_start',
      'window_end',
      'likes',
      'avg_watch_time',
      'likes__raw',
    ]);
    // DuckDB reads the gzip JSON Lines; every cell equals Parquet's
    const jl = files.filter((f) => f.format === 'jsonl').map((f) => lit(join(dir, f.key)));
    const pq = files.filter((f) => f.format === 'parquet').map((f) => lit(join(dir, f.key)));
    const cols =
      'post_id, caption, likes::VARCHAR AS likes, avg_watch_time, published_at::VARCHAR AS published_at, likes__raw';
    const fromJson = await duckQuery(
      `SELECT ${cols} FROM read_json([${jl.join(',')}], format='newline_delimited', union_by_name=true, columns={post_id:'VARCHAR',caption:'VARCHAR',likes:'BIGINT',avg_watch_time:'DOUBLE',published_at:'TIMESTAMPTZ',likes__raw:'VARCHAR'}) ORDER BY post_id`,
    );
    const fromParquet = await duckQuery(
      `SELECT ${cols} FROM read_parquet([${pq.join(',')}], union_by_name=true) ORDER BY post_id`,
    );
    expect(fromJson).toEqual(fromParquet);
    expect(fromParquet.map((r) => r.likes)).toEqual(['9007199254740993', '2', null]);
  });

  it('an empty report still gets a (gzip, empty) part', async () => {
    const { files } = await write([]);
    const jsonl = files.find((f) => f.format === 'jsonl');
    expect(gunzipSync(await readFile(join(dir, jsonl?.key ?? ''))).byteLength).toBe(0);
  });
});
