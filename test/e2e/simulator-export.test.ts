import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEncoderPool } from '#adapters/encoder-pool';
import { createFsSink } from '#adapters/fs-sink';
import type { Config } from '#core/config/schema';
import { silentLog } from '#core/log';
import type { Manifest } from '#core/manifest';
import { exportReportStep } from '#core/run/export-step';
import { findReport, findSchedule } from '#core/run/lookup';
import { runSchedule } from '#core/run/run';
import type { ExportCheckpoint } from '#core/run/types';
import { type Simulator, startSimulator } from '#simulator/server';
import { duckQuery } from '../core/export/duck';
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
// The scheduled runs encode in a worker pool, as the CLI and the Lambda do on more than two cores; the continuation test
// below encodes on the calling thread. Both are read back by DuckDB.
const encoder = createEncoderPool({ workers: 2 });

beforeAll(async () => {
  // strict: a parameter the API document does not list, or arrays in another encoding, is a 400
  sim = await startSimulator({
    seed: 7,
    hostile: true,
    dialect: { strict: true, arrayFormat: 'repeat' },
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
      const { manifest } = await runSchedule(config, run, {
        api,
        sink: createFsSink(dir),
        mailer: null,
        log,
        now: () => new Date(),
        newRunId: () => `run-${run.scheduleId}`,
        tuning: { rowGroupRows: 700 },
        encoder,
      });
      manifests.push(manifest);
    }
  } finally {
    await api.close();
  }
}, 60_000);

afterAll(async () => {
  await encoder.close();
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
    expect(manifests.flatMap((m) => m.reports.filter((r) => r.error).map((r) => r.error))).toEqual([]);
    expect(manifests.map((m) => m.status)).toEqual(['succeeded', 'succeeded']);
    // a server that agrees with the exporter: a plain success, no silent-loss warnings
    expect(manifests.flatMap((m) => m.reports.flatMap((r) => r.warnings ?? []))).toEqual([]);
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

  it('hostile text (quotes, newlines, formulas, emoji, RTL) round-trips exactly, in Parquet and in CSV', async () => {
    const m = manifests[0];
    const schedule = findSchedule(config, 'weekly-campaigns');
    let hostile = 0;
    for (const reportId of ['creators', 'posts']) {
      const r = m?.reports.find((x) => x.reportId === reportId);
      if (!m || !r) throw new Error(`no ${reportId} report`);
      const idField = reportId === 'posts' ? 'postId' : 'creatorId';
      const truth = truthRows(sim, findReport(schedule, reportId), m.window);
      // text columns (date-times such as publishedAt are TIMESTAMP columns, compared elsewhere)
      const isText = (api: string) => r.columns.find((c) => c.apiName === api)?.type === 'string';
      const textFields = [
        ...new Set(
          truth.flatMap((row) =>
            Object.keys(row).filter((k) => typeof row[k] === 'string' && k !== idField && isText(k)),
          ),
        ),
      ];
      expect(textFields.length).toBeGreaterThan(0);
      // files carry snake_case names; the manifest maps each to the API's name
      const colOf = (api: string) => r.columns.find((c) => c.apiName === api)?.name ?? api;
      for (const format of ['parquet', 'csv'] as const) {
        const cols = textFields.map((f) => `"${colOf(f)}" AS "${f}"`).join(', ');
        const back = await duckQuery(
          `SELECT "${colOf(idField)}" AS id, ${cols} FROM ${readBackSql(dir, r, format)}`,
        );
        const byId = new Map(back.map((row) => [String(row.id), row]));
        for (const row of truth) {
          const got = byId.get(String(row[idField]));
          for (const f of textFields) {
            const sent = row[f];
            if (typeof sent !== 'string') continue;
            if (/[\r\n"=]/.test(sent)) hostile += 1;
            // exact in both: the formula guard is only for emailed copies. CSV cannot tell '' from null
            expect(format === 'csv' ? (got?.[f] ?? '') : got?.[f], `${reportId}.${f} (${format})`).toBe(sent);
          }
        }
      }
    }
    expect(hostile).toBeGreaterThan(0);
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

describe('continuation against the simulator', () => {
  it('a posts export under a tiny time budget (one page per step) equals the uninterrupted export', async () => {
    const schedule = findSchedule(config, 'weekly-campaigns');
    const window = manifests[0]?.window ?? {
      start: '2026-11-16',
      end: '2026-11-22',
      timezone: 'Europe/Berlin',
    };
    const task = {
      runId: 'c',
      scheduleId: schedule.id,
      reportId: 'posts',
      scheduledTime: RUNS[0]?.scheduledTime ?? '',
      window,
    };
    const outcomes = [];
    for (const budget of [undefined, () => 0]) {
      const out = await mkdtemp(join(tmpdir(), 'e2e-cont-'));
      const api = simulatorApi(sim, config);
      let checkpoint: ExportCheckpoint | null = null;
      let steps = 0;
      try {
        for (;;) {
          steps += 1;
          const result = await exportReportStep(config, task, checkpoint, {
            api,
            sink: createFsSink(out),
            log: silentLog,
            tuning: { rowGroupRows: 700, safetyMarginMs: 1 },
            ...(budget ? { timeLeftMs: budget } : {}),
          });
          if (result.status === 'done') {
            const r = result.outcome.manifest;
            const rows = await duckQuery(`SELECT * FROM ${readBackSql(out, r, 'parquet')} ORDER BY post_id`);
            const csv = await duckQuery(`SELECT * FROM ${readBackSql(out, r, 'csv')} ORDER BY post_id`);
            // page counts differ between runs: the simulator's empty-page fault is drawn per request
            outcomes.push({
              steps,
              pages: r.pages,
              manifest: { ...r, files: [], pages: 0 },
              top: result.outcome.top,
              rows,
              csv,
            });
            break;
          }
          checkpoint = JSON.parse(JSON.stringify(result.checkpoint)) as ExportCheckpoint;
        }
      } finally {
        await api.close();
        await rm(out, { recursive: true, force: true });
      }
    }
    const [whole, split] = outcomes;
    expect(whole?.steps).toBe(1);
    expect(split?.steps).toBe(split?.pages);
    expect(split?.steps).toBeGreaterThan(10);
    expect(split?.manifest).toEqual(whole?.manifest);
    expect(split?.top).toEqual(whole?.top);
    expect(split?.rows).toEqual(whole?.rows);
    expect(split?.csv).toEqual(whole?.csv);
    expect(whole?.rows.length).toBe(whole?.manifest.rowCount);
  }, 30_000);
});
