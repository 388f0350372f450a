/**
 * The downstream contract end to end, against a small loopback HTTP server that sends raw JSON text:
 * two weekly runs of one config (money and averages whole in week one, fractional in week two, a field
 * added in week two) read back with DuckDB binding by position (`union_by_name = false`, no hive
 * partitioning); and a hostile server (colliding keys, `__proto__`/`constructor`/empty keys, case-only
 * differences, false dates, long integers) whose every value is found unaltered in Parquet and CSV.
 */

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import { createHttp } from '#adapters/http';
import { createApiClient } from '#core/api/client';
import { parseConfig } from '#core/config/load';
import type { Config } from '#core/config/schema';
import { silentLog } from '#core/log';
import type { Manifest } from '#core/manifest';
import { runSchedule } from '#core/run/run';
import { duckQuery, lit } from '../core/export/duck';
import { freePort } from '../support/ports';

/** The page body the server sends for a window end (raw text, so long integers stay exact). */
let bodyFor: (windowEnd: string) => string = () => '{"data":[]}';
let server: Server;
let baseUrl = '';
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'contract-'));
  const port = await freePort();
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/oauth/token') {
      req.resume();
      res.end(JSON.stringify({ jwt: 'a.b.c' }));
      return;
    }
    res.end(bodyFor(url.searchParams.get('endDate') ?? ''));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

function config(metrics: string, reportId: string): Config {
  return parseConfig(`
api: { baseUrl: ${baseUrl}, credentialsSecret: s }
output: { prefix: exports/, formats: [parquet, csv, jsonl] }
schedules:
  - id: weekly
    cron: "0 8 ? * MON *"
    window: previous-week
    reports:
      - id: ${reportId}
        route: posts/performance
        metrics: [${metrics}]
`);
}

async function run(cfg: Config, scheduledTime: string, out: string): Promise<Manifest> {
  const api = createApiClient({
    http: createHttp,
    baseUrl,
    credentials: async () => ({ clientId: 'id', clientSecret: 'secret' }),
    timeoutMs: 5_000,
    maxRetries: 0,
  });
  try {
    const { manifest } = await runSchedule(
      cfg,
      { scheduleId: 'weekly', scheduledTime },
      {
        api,
        sink: createFsSink(out),
        mailer: null,
        log: silentLog,
        now: () => new Date(scheduledTime),
        newRunId: () => `run-${scheduledTime}`,
      },
    );
    return manifest;
  } finally {
    await api.close();
  }
}

const files = (m: Manifest, format: string, root: string) =>
  m.reports[0]?.files.filter((f) => f.format === format).map((f) => join(root, f.key)) ?? [];

describe('two weekly runs: types by rule, order only extended', () => {
  const METRICS = 'likes, avgWatchTime, roi, paidAdSpend, cost, saves';
  const week = (whole: boolean, added: boolean) => (end: string) =>
    JSON.stringify({
      data: Array.from({ length: 6 }, (_, i) => ({
        postId: `p${end}-${i}`,
        platform: i % 2 ? 'tiktok' : 'instagram',
        ...(added ? { publishedAt: `${end}T10:0${i}:00Z` } : {}),
        metrics: {
          likes: 10 + i,
          avgWatchTime: whole ? 12 + i : 12.5 + i,
          roi: whole ? 2 : 2.25,
          paidAdSpend: whole ? 100 * i : 100.1 * i,
          cost: whole ? 7 : 7.3,
          saves: null,
        },
      })),
      nextCursor: null,
    });

  let first: Manifest;
  let second: Manifest;
  const out = () => join(dir, 'weeks');

  beforeAll(async () => {
    bodyFor = week(true, false);
    first = await run(config(METRICS, 'posts'), '2026-11-16T08:00:00Z', out());
    bodyFor = week(false, true);
    second = await run(config(METRICS, 'posts'), '2026-11-23T08:00:00Z', out());
  }, 60_000);

  it('gives every shared column the same name and type, and week one is a prefix of week two', () => {
    const a = first.reports[0]?.columns ?? [];
    const b = second.reports[0]?.columns ?? [];
    expect(b.slice(0, a.length)).toEqual(a);
    expect(b.slice(a.length).map((c) => [c.name, c.type])).toEqual([['published_at', 'timestamp']]);
    expect(a.map((c) => `${c.name}:${c.type}`)).toEqual([
      'post_id:string',
      'platform:string',
      'window_start:date',
      'window_end:date',
      'likes:int64',
      'avg_watch_time:double',
      'roi:double',
      'paid_ad_spend:double',
      'cost:double',
      'saves:int64',
    ]);
    expect(second.reports[0]?.warnings).toBeUndefined();
  });

  it('each Parquet file has exactly the manifest columns it says it carries (names and types)', async () => {
    const duck: Record<string, string> = {
      string: 'VARCHAR',
      int64: 'BIGINT',
      double: 'DOUBLE',
      date: 'DATE',
      timestamp: 'TIMESTAMP WITH TIME ZONE',
      boolean: 'BOOLEAN',
    };
    for (const m of [first, second]) {
      const r = m.reports[0];
      for (const f of r?.files.filter((x) => x.format === 'parquet') ?? []) {
        const desc = await duckQuery(
          `DESCRIBE SELECT * FROM read_parquet(${lit(join(out(), f.key))}, hive_partitioning = false)`,
        );

        const want = (r?.columns ?? []).slice(0, f.columns).map((c) => `${c.name}:${duck[c.type]}`);
        expect(desc.map((d) => `${d.column_name}:${d.column_type}`)).toEqual(want);
      }
    }
  });

  it('reads both weeks as one table by position (hive_partitioning = false, union_by_name = false)', async () => {
    const pq = [...files(first, 'parquet', out()), ...files(second, 'parquet', out())].map(lit);
    // each week read binding by position; week one's columns are a prefix of week two's, so the
    // shared columns union by position with no cast (a type that flipped would be refused or coerced)
    const shared = (first.reports[0]?.columns ?? []).map((c) => `"${c.name}"`).join(', ');
    const weekly = (m: Manifest) =>
      `SELECT ${shared} FROM read_parquet([${files(m, 'parquet', out()).map(lit).join(',')}], hive_partitioning = false, union_by_name = false)`;
    const types = async (m: Manifest) =>
      (await duckQuery(`DESCRIBE ${weekly(m)}`)).map((d) => `${d.column_name}:${d.column_type}`);
    expect(await types(second)).toEqual(await types(first));
    const rows = await duckQuery(
      `SELECT post_id, avg_watch_time, paid_ad_spend, saves FROM (${weekly(first)} UNION ALL ${weekly(second)}) ORDER BY post_id`,
    );
    expect(pq).toHaveLength(2);
    expect(rows).toHaveLength(12);
    expect(rows.find((r) => r.post_id === 'p2026-11-15-1')).toEqual({
      post_id: 'p2026-11-15-1',
      avg_watch_time: 13,
      paid_ad_spend: 100,
      saves: null,
    });
    expect(rows.find((r) => r.post_id === 'p2026-11-22-1')).toMatchObject({
      avg_watch_time: 13.5,
      paid_ad_spend: 100.1,
    });
    const second2 = await duckQuery(
      `SELECT published_at::VARCHAR AS p FROM read_parquet([${files(second, 'parquet', out()).map(lit).join(',')}], hive_partitioning = false) ORDER BY 1 LIMIT 1`,
    );
    expect(second2).toEqual([{ p: '2026-11-22 10:00:00+00' }]);
    const header = (await readFile(files(second, 'csv', out())[0] ?? '', 'utf8')).split('\r\n')[0];
    expect(header).toBe(
      'post_id,platform,window_start,window_end,likes,avg_watch_time,roi,paid_ad_spend,cost,saves,published_at',
    );
    // CSV by position with the header skipped, typed by the model (as a positional table would be)
    const duck = {
      string: 'VARCHAR',
      int64: 'BIGINT',
      double: 'DOUBLE',
      date: 'DATE',
      timestamp: 'TIMESTAMPTZ',
      boolean: 'BOOLEAN',
    };
    const csvWeek = (m: Manifest) => {
      const cols = (m.reports[0]?.columns ?? [])
        .map((c) => `${lit(c.name)}: ${lit(duck[c.type])}`)
        .join(', ');
      return `SELECT ${shared} FROM read_csv([${files(m, 'csv', out()).map(lit).join(',')}], header = true, hive_partitioning = false, union_by_name = false, strict_mode = true, columns = {${cols}})`;
    };
    const fromCsv = await duckQuery(
      `SELECT count(*)::INT AS n, sum(avg_watch_time)::DOUBLE AS s FROM (${csvWeek(first)} UNION ALL ${csvWeek(second)})`,
    );
    // the timestamp's CSV text is what a CSV reader infers as a timestamp with time zone, as in Parquet
    const sniffed = await duckQuery(
      `DESCRIBE SELECT published_at FROM read_csv(${lit(files(second, 'csv', out())[0] ?? '')}, header = true)`,
    );
    expect(sniffed.map((d) => d.column_type)).toEqual(['TIMESTAMP WITH TIME ZONE']);
    expect(fromCsv).toEqual([
      { n: 12, s: 12 + 13 + 14 + 15 + 16 + 17 + 12.5 + 13.5 + 14.5 + 15.5 + 16.5 + 17.5 },
    ]);
  });
});

describe('a hostile server: every value it sent is in the files, unaltered', () => {
  const BODY = `{"data":[
    {"postId":"h1","creator_name":"top","creator":{"name":"nested"},"likes":"field-likes","window_start":"field-ws",
     "Caption":"upper","caption":"lower","__proto__":"proto-value","constructor":"ctor-value","":"empty-key",
     "startDay":"2026-02-30","zero":"0000-00-00","bad":"2026-13-45","good":"2026-11-20",
     "metrics":{"likes":9007199254740993,"views":12345678901234567891,"huge":1e400,"avgWatchTime":1.5}},
    {"postId":"h2","creator_name":"top2","creator":{"name":"nested2"},"likes":"f2","window_start":"w2",
     "Caption":"U2","caption":"l2","__proto__":"p2","constructor":"c2","":"e2",
     "startDay":"2026-02-28","zero":"2026-01-01","bad":"2026-12-31","good":"2026-11-21",
     "metrics":{"likes":-9223372036854775808,"views":1,"huge":2,"avgWatchTime":2}}
  ],"nextCursor":null}`;
  let m: Manifest;
  const out = () => join(dir, 'hostile');

  beforeAll(async () => {
    bodyFor = () => BODY;
    m = await run(config('likes, views, huge, avgWatchTime', 'hostile'), '2026-11-23T08:00:00Z', out());
  }, 60_000);

  it('gives every key its own column (documented collision rule), with the API name in the manifest', () => {
    const cols = m.reports[0]?.columns ?? [];
    const pairs = cols.map((c) => `${c.apiName ?? '(window)'} → ${c.name}`);
    expect(pairs).toEqual(
      expect.arrayContaining([
        'creator_name → creator_name',
        'creator.name → creator_name__2',
        'likes → likes', // the metric
        'likes → likes__2', // the field named like the metric
        '(window) → window_start',
        'window_start → window_start__2',
        'Caption → caption',
        'caption → caption__2',
        '__proto__ → __proto__',
        'constructor → constructor',
        ' → unnamed',
      ]),
    );
    expect(new Set(cols.map((c) => c.name.toLowerCase())).size).toBe(cols.length);
    const types = Object.fromEntries(cols.map((c) => [c.name, c.type]));
    expect(types).toMatchObject({ start_day: 'string', zero: 'string', bad: 'string', good: 'date' });
  });

  it('keeps long integers exact, and warns naming each column whose values went to its raw companion', async () => {
    const warnings = m.reports[0]?.warnings ?? [];
    expect(warnings.map((w) => [w.code, w.column, w.count]).sort()).toEqual([
      ['LONG_INTEGER', 'views', 1],
      ['NON_FINITE', 'huge', 1],
    ]);
    expect(warnings.some((w) => w.column === 'likes')).toBe(false);
  });

  it('finds every value unaltered in Parquet and in CSV', async () => {
    const want = JSON.parse(`[
      {"post_id":"h1","creator_name":"top","creator_name__2":"nested","likes__2":"field-likes",
       "window_start__2":"field-ws","caption":"upper","caption__2":"lower","__proto__":"proto-value",
       "constructor":"ctor-value","unnamed":"empty-key","start_day":"2026-02-30","zero":"0000-00-00",
       "bad":"2026-13-45","good":"2026-11-20","likes":"9007199254740993","views":null,
       "views__raw":"12345678901234567891","huge":null,"huge__raw":"1e400","avg_watch_time":"1.5"},
      {"post_id":"h2","creator_name":"top2","creator_name__2":"nested2","likes__2":"f2",
       "window_start__2":"w2","caption":"U2","caption__2":"l2","__proto__":"p2","constructor":"c2",
       "unnamed":"e2","start_day":"2026-02-28","zero":"2026-01-01","bad":"2026-12-31","good":"2026-11-21",
       "likes":"-9223372036854775808","views":"1","views__raw":null,"huge":"2","huge__raw":null,
       "avg_watch_time":"2"}
    ]`) as Record<string, string | null>[];
    // aliased c0, c1, …: a row object keyed `__proto__` would lose its value
    const names = Object.keys(want[0] ?? {});
    const select = names.map((c, i) => `"${c}"::VARCHAR AS c${i}`).join(', ');
    for (const source of [
      `read_parquet([${files(m, 'parquet', out()).map(lit).join(',')}])`,
      `read_csv([${files(m, 'csv', out()).map(lit).join(',')}], header = true, all_varchar = true)`,
    ]) {
      const rows = await duckQuery(`SELECT ${select} FROM ${source} ORDER BY post_id`);
      for (const [i, row] of want.entries()) {
        for (const [j, column] of names.entries()) {
          const got = rows[i]?.[`c${j}`] ?? null;
          const sent = row[column] ?? null;
          const same = column === 'avg_watch_time' ? Number(got) === Number(sent) : got === sent;
          expect(
            same,
            `${source.slice(0, 12)} ${String(row.post_id)}.${column}: ${String(got)} vs ${String(sent)}`,
          ).toBe(true);
        }
      }
    }
  });
});
