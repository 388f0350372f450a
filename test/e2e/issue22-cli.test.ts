/**
 * Issue 22's by-hand checks as real `report-exporter run` processes against a server that sends what
 * social platforms send: postIds beyond 2^53, view counts whose total is beyond 2^53, a field named
 * `dt`, a 4,000-key per-country breakdown, and a field that appears after the first 25,000 rows (the
 * model grows mid-run and a part rolls over). Everything is read back with DuckDB.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Manifest, ManifestSchema } from '#core/manifest';
import { duckQuery, lit } from '../core/export/duck';
import { type HostileServer, startHostileServer } from '../support/hostile-server';
import { apiCredentials, runArgs, runCli } from '../support/run-cli';

const ROWS = 40_000;
const PAGE = 1_000;
const LATE_FROM = 26_500;
const BASE_ID = 17841405822304914n;
const BIG_VIEWS = 270215977642665000n;

let server: HostileServer;
let dir: string;
/** Rows the server sends per day (`since` of the request), as raw JSON text. */
let rowsOfDay: (day: string, i: number) => string;
let rowCount = ROWS;

const breakdown = `{${Array.from({ length: 4000 }, (_, k) => `"c${k}":${k}`).join(',')}}`;

beforeAll(async () => {
  server = await startHostileServer({ issueTokens: true });
  dir = await mkdtemp(join(tmpdir(), 'issue22-cli-'));
  rowsOfDay = (_day, i) =>
    `{"postId":${BASE_ID + BigInt(i)},"dt":"2026-11-05"${i === 0 ? `,"breakdown":${breakdown}` : ''}${
      i >= LATE_FROM ? ',"publishedAt":"2026-11-20T10:00:00Z"' : ''
    },"metrics":{"likes":${i % 7},"views":${i === 1 ? BIG_VIEWS : 15}}}`;
  server.routes.set('/v2/posts/performance', (req, res) => {
    const from = Number(req.url.searchParams.get('nextCursor') ?? '0');
    const to = Math.min(rowCount, from + PAGE);
    const rows = Array.from({ length: to - from }, (_, k) => rowsOfDay('', from + k));
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(`{"data":[${rows.join(',')}],"nextCursor":${to < rowCount ? `"${to}"` : 'null'}}`);
  });
  await writeFile(
    join(dir, 'reports.yaml'),
    `api: { baseUrl: "${server.baseUrl}", credentialsSecret: s, pageSize: ${PAGE} }
output: { formats: [parquet, csv, jsonl] }
schedules:
  - id: daily
    cron: "0 6 * * ? *"
    window: yesterday
    reports:
      - { id: posts, route: posts/performance, metrics: [likes, views] }
`,
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(at: string): Promise<{ code: number | null; stdout: string; manifest: Manifest }> {
  const exited = await runCli(
    runArgs('daily', at, '--out', join(dir, 'out'), '--no-email', '-c', join(dir, 'reports.yaml')),
    {
      env: apiCredentials({ clientId: 'c', clientSecret: 's3cret-value' }),
    },
  );
  const day = new Date(Date.parse(at) - 86_400_000).toISOString().slice(0, 10);
  const text = await import('node:fs/promises').then((fs) =>
    fs.readFile(join(dir, 'out', `exports/daily/_manifests/dt=${day}/manifest.json`), 'utf8'),
  );
  return { ...exited, manifest: ManifestSchema.parse(JSON.parse(text)) };
}

describe('issue 22 by hand, as a user runs it', () => {
  let first: Awaited<ReturnType<typeof run>>;
  const files = (format: string) => first.manifest.reports[0]?.files.filter((f) => f.format === format) ?? [];
  const list = (format: string) =>
    `[${files(format)
      .map((f) => lit(join(dir, 'out', f.key)))
      .join(',')}]`;

  beforeAll(async () => {
    first = await run('2026-11-23T06:00:00Z');
  }, 240_000);

  it('succeeds with the breakdown’s warning only (exit 3), one JSON column for 4,000 keys', () => {
    const report = first.manifest.reports[0];
    expect(report?.status, report?.error ?? '').toBe('succeeded');
    expect(first.code, first.stdout).toBe(3);
    expect(report?.warnings?.map((w) => [w.code, w.column])).toEqual([['OBJECT_AS_JSON', 'breakdown']]);
    expect(report?.columns.length).toBeLessThan(12);
  });

  it('writes postIds beyond 2^53 with exact digits in Parquet, CSV and JSON Lines', async () => {
    const sql = (from: string) =>
      `SELECT min(post_id::VARCHAR) AS lo, max(post_id::VARCHAR) AS hi, count(DISTINCT post_id)::INT AS n FROM ${from}`;
    const want = [{ lo: `${BASE_ID}`, hi: `${BASE_ID + BigInt(ROWS - 1)}`, n: ROWS }];
    expect(await duckQuery(sql(`read_parquet(${list('parquet')})`))).toEqual(want);
    expect(await duckQuery(sql(`read_csv(${list('csv')}, all_varchar=true)`))).toEqual(want);
    expect(await duckQuery(sql(`read_json(${list('jsonl')}, columns={post_id: 'VARCHAR'})`))).toEqual(want);
  });

  it('totals views beyond 2^53 exactly (as decimal text), equal to the files’ sum', async () => {
    const totals = first.manifest.reports[0]?.totals ?? {};
    const sum = await duckQuery(`SELECT sum(views)::VARCHAR AS s FROM read_parquet(${list('parquet')})`);
    expect(totals.views).toBe(sum[0]?.s);
    expect(totals.views).toBe(`${BIG_VIEWS + 15n * BigInt(ROWS - 1)}`);
  });

  it('states files[].rows equal to the files after the model grew mid-run, every part with the same columns', async () => {
    for (const format of ['parquet', 'csv', 'jsonl']) {
      for (const f of files(format)) {
        const from =
          format === 'parquet'
            ? `read_parquet(${lit(join(dir, 'out', f.key))})`
            : format === 'csv'
              ? `read_csv(${lit(join(dir, 'out', f.key))}, all_varchar=true)`
              : `read_json(${lit(join(dir, 'out', f.key))}, columns={post_id: 'VARCHAR'})`;
        expect(await duckQuery(`SELECT count(*)::INT AS n FROM ${from}`), f.key).toEqual([{ n: f.rows }]);
      }
    }
    expect(files('parquet').length).toBeGreaterThan(1);
    expect(new Set(first.manifest.reports[0]?.files.map((f) => f.columns))).toEqual(
      new Set([first.manifest.reports[0]?.columns.length]),
    );
    // no union_by_name: every part has published_at
    const late = await duckQuery(
      `SELECT count(published_at)::INT AS n FROM read_parquet(${list('parquet')})`,
    );
    expect(late).toEqual([{ n: ROWS - LATE_FROM }]);
  });

  it('keeps the API’s dt as dt__2 beside the partition’s dt (hive partitioning)', async () => {
    const glob = lit(join(dir, 'out', 'exports/daily/posts/parquet/*/*.parquet'));
    expect(
      await duckQuery(
        `SELECT DISTINCT dt::VARCHAR AS dt, dt__2 FROM read_parquet(${glob}, hive_partitioning = true)`,
      ),
    ).toEqual([{ dt: '2026-11-22', dt__2: '2026-11-05' }]);
  });

  it('the next run, with six ordinary rows, succeeds', async () => {
    rowCount = 6;
    rowsOfDay = (_day, i) => `{"postId":"n${i}","metrics":{"likes":${i},"views":1}}`;
    const next = await run('2026-11-24T06:00:00Z');
    expect(next.code, next.stdout).toBe(0);
    expect(next.manifest.reports[0]?.rowCount).toBe(6);
  }, 120_000);
});
