import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import type { Config } from '#core/config/schema';
import type { Manifest } from '#core/manifest';
import { findReport, findSchedule } from '#core/run/lookup';
import { runSchedule } from '#core/run/run';
import { type Simulator, startSimulator } from '#simulator/server';
import {
  exampleConfig,
  readBackSql,
  readBackSummary,
  recordingLog,
  sameSummary,
  simulatorApi,
  truthRows,
  truthSummary,
} from './helpers';

// Both schedules of the example config cover all nine routes.
const RUNS = [
  { scheduleId: 'weekly-campaigns', scheduledTime: '2026-11-23T07:00:00Z' },
  { scheduleId: 'monthly-overview', scheduledTime: '2026-11-01T10:00:00Z' },
];

let sim: Simulator;
let dir: string;
let config: Config;
const log = recordingLog();
const manifests: Manifest[] = [];

beforeAll(async () => {
  sim = await startSimulator({
    seed: 7,
    faults: {
      rate429: 0.05,
      retryAfter: 'seconds',
      retryAfterSeconds: 0,
      rate5xx: 0.05,
      rateReset: 0.03,
      tokenTtlSeconds: 1,
      rateEmptyPage: 0.05,
    },
  });
  dir = await mkdtemp(join(tmpdir(), 'e2e-sim-'));
  config = await exampleConfig(sim.baseUrl, { maxRowsPerPart: 1000 });
  const api = simulatorApi(sim, config, log);
  try {
    for (const run of RUNS) {
      manifests.push(
        await runSchedule(config, run, {
          api,
          sink: createFsSink(dir),
          mailer: null,
          log,
          now: () => new Date(),
          newRunId: () => `run-${run.scheduleId}`,
          tuning: { rowGroupRows: 700 },
        }),
      );
    }
  } finally {
    await api.close();
  }
}, 60_000);

afterAll(async () => {
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('export against the simulator with faults on', () => {
  it('hit the faults it was meant to survive', () => {
    const stats = sim.stats();
    const failures = Object.entries(stats.byStatus)
      .filter(([s]) => Number(s) >= 429)
      .reduce((n, [, c]) => n + c, 0);
    expect(failures).toBeGreaterThan(0);
    expect(stats.tokensIssued).toBeGreaterThan(1);
  });

  it('every report of both schedules succeeded', () => {
    expect(manifests.map((m) => m.status)).toEqual(['succeeded', 'succeeded']);
    expect(manifests.flatMap((m) => m.reports.map((r) => r.route)).sort()).toEqual([
      'campaigns',
      'campaigns/performance',
      'creators/performance',
      'instances',
      'instances/performance',
      'instances/performance-over-time',
      'platforms/performance',
      'platforms/return-on-investment',
      'posts/performance',
    ]);
  });

  for (const format of ['parquet', 'csv'] as const) {
    it(`${format}: every route's rows equal the ground truth (count, ids, per-metric sums) read back by DuckDB`, async () => {
      for (const m of manifests) {
        const schedule = findSchedule(config, m.scheduleId);
        for (const r of m.reports) {
          const truth = truthRows(sim, findReport(schedule, r.reportId), m.window);
          const got = await readBackSummary(readBackSql(dir, r, format), r);
          const want = truthSummary(truth, r, got);
          expect(sameSummary(got, want), `${m.scheduleId}/${r.reportId}`).toEqual([]);
          expect(r.rowCount).toBe(truth.length);
        }
      }
    });
  }

  it('posts spread over several parts, each within maxRowsPerPart, with _SUCCESS beside them', async () => {
    const posts = manifests[0]?.reports.find((r) => r.reportId === 'posts');
    const parquet = posts?.files.filter((f) => f.format === 'parquet') ?? [];
    expect(parquet.length).toBeGreaterThan(1);
    expect(parquet.every((f) => f.rows <= 1000)).toBe(true);
    const folder = join(dir, 'exports/weekly-campaigns/posts/parquet/dt=2026-11-22');
    expect(await readdir(folder)).toContain('_SUCCESS');
  });

  it('manifest files match the objects: bytes and sha256', async () => {
    const { createHash } = await import('node:crypto');
    for (const m of manifests) {
      for (const f of m.reports.flatMap((r) => r.files)) {
        const body = await readFile(join(dir, f.key));
        expect(body.byteLength).toBe(f.bytes);
        expect(createHash('sha256').update(body).digest('hex')).toBe(f.sha256);
      }
    }
  });

  it('the client secret never appears in any written file or log line', async () => {
    const secret = sim.credentials.clientSecret;
    expect(secret.length).toBeGreaterThan(8);
    const sink = createFsSink(dir);
    for (const key of await sink.list('')) {
      expect((await readFile(join(dir, key))).includes(secret), key).toBe(false);
    }
    expect(log.lines.filter((l) => l.includes(secret))).toEqual([]);
  });
});
