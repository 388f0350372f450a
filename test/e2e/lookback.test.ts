/**
 * Lookback end to end against the simulator whose values grow between two calls for the same window
 * (late-arriving metrics): two weekly runs with `lookback: 1` — the second rewrites week one exactly,
 * records before → after, names the revision in the email and the completion event — then a third run
 * whose re-export of week two fails, which leaves that partition and its `_SUCCESS` as they were.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import type { ReportingApi } from '#core/api/types';
import type { Config } from '#core/config/schema';
import type { EmailMessage, Mailer } from '#core/email/types';
import { manifestKey } from '#core/export/keys';
import { silentLog } from '#core/log';
import { type Manifest, ManifestSchema } from '#core/manifest';
import { findReport, findSchedule } from '#core/run/lookup';
import { runSchedule } from '#core/run/run';
import { completedDetail } from '#handlers/completed-event';
import { type Simulator, startSimulator } from '#simulator/server';
import {
  exampleConfig,
  readBackSql,
  readBackSummary,
  sameSummary,
  simulatorApi,
  truthRows,
  truthSummary,
} from './helpers';

const SCHEDULE = 'weekly-campaigns';
const AT = ['2026-11-16T07:00:00Z', '2026-11-23T07:00:00Z', '2026-11-30T07:00:00Z'];
const WEEK1 = '2026-11-15';
const WEEK2 = '2026-11-22';
const en = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

let sim: Simulator;
let dir: string;
let config: Config;
const sent: EmailMessage[] = [];
/** The stakeholders' email of each run (operators get their own, with the run details). */
const toStakeholders = () => sent.filter((m) => m.audience !== 'operators');
const runs: Manifest[] = [];
/** Week one's manifest after run 1, and what DuckDB read back from it then. */
let week1First: Manifest;
let week1FirstSums: Record<string, Record<string, string>>;
/** Week two's partition files (key → sha256) before the failing re-export of run 3. */
let week2Before: Record<string, string>;

const mailer: Mailer = {
  send: async (m) => {
    sent.push(m);
    return `m-${sent.length}`;
  },
};

async function readManifest(end: string): Promise<Manifest> {
  const text = await readFile(join(dir, manifestKey(config.output.prefix, SCHEDULE, end)), 'utf8');
  return ManifestSchema.parse(JSON.parse(text));
}

/** Every object of the week's partitions (parts and `_SUCCESS`) with its sha256. */
async function partitionFiles(end: string): Promise<Record<string, string>> {
  const sink = createFsSink(dir);
  const out: Record<string, string> = {};
  for (const key of await sink.list(`${config.output.prefix}${SCHEDULE}/`)) {
    if (!key.includes(`/dt=${end}/`) || key.includes('/_manifests/')) continue;
    out[key] = createHash('sha256')
      .update(await readFile(join(dir, key)))
      .digest('hex');
  }
  return out;
}

async function sums(m: Manifest): Promise<Record<string, Record<string, string>>> {
  const out: Record<string, Record<string, string>> = {};
  for (const r of m.reports)
    out[r.reportId] = (await readBackSummary(readBackSql(dir, r, 'parquet'), r)).sums;
  return out;
}

/** The API, except that requests for one window fail (before any page arrives). */
function failingFor(api: ReportingApi, startDate: string): ReportingApi {
  return {
    pages: (req, options) =>
      req.startDate === startDate
        ? (async function* () {
            yield* [];
            throw new Error('HTTP 500 from the API after 5 retries');
          })()
        : api.pages(req, options),
    close: () => api.close(),
  };
}

async function run(at: string, api: ReportingApi): Promise<Manifest> {
  const { manifest, emailError } = await runSchedule(
    config,
    { scheduleId: SCHEDULE, scheduledTime: at },
    {
      api,
      sink: createFsSink(dir),
      mailer,
      log: silentLog,
      now: () => new Date(),
      newRunId: () => `run-${runs.length + 1}`,
    },
  );
  if (emailError) throw emailError;
  return manifest;
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 11, growth: 0.05, scale: { postsPerDay: 60 } });
  dir = await mkdtemp(join(tmpdir(), 'e2e-lookback-'));
  const base = await exampleConfig(sim.baseUrl);
  config = {
    ...base,
    schedules: base.schedules.map((s) => (s.id === SCHEDULE ? { ...s, lookback: 1 } : s)),
  };
  const api = simulatorApi(sim, config);
  try {
    runs.push(await run(AT[0] ?? '', api));
    week1First = await readManifest(WEEK1);
    week1FirstSums = await sums(week1First);
    sim.advance(); // late metrics arrive: every counter grows by 5 % of its first value
    runs.push(await run(AT[1] ?? '', api));
    week2Before = await partitionFiles(WEEK2);
    sim.advance();
    runs.push(await run(AT[2] ?? '', failingFor(api, '2026-11-16')));
  } finally {
    await api.close();
  }
}, 120_000);

afterAll(async () => {
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('lookback: 1 against late-arriving metrics', () => {
  it('run 2 rewrites week one exactly: Parquet and CSV read back equal the server’s new values', async () => {
    const week1 = await readManifest(WEEK1);
    expect(week1.reports.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    for (const r of week1.reports) {
      for (const format of ['parquet', 'csv'] as const) {
        const got = await readBackSummary(readBackSql(dir, r, format), r);
        expect(got.rows).toBe(r.rowCount);
        // the partition holds run 2's values, which differ from run 1's
        expect(got.sums.likes, `${r.reportId} ${format}`).not.toBe(week1FirstSums[r.reportId]?.likes);
      }
      // only the files of the re-export remain in the partition, each with _SUCCESS
      const files = await partitionFiles(WEEK1);
      const mine = Object.keys(files).filter((k) => k.includes(`/${r.reportId}/`));
      expect(mine.sort()).toEqual(
        [
          ...r.files.map((f) => f.key),
          ...config.output.formats.map(
            (f) => `${config.output.prefix}${SCHEDULE}/${r.reportId}/${f}/dt=${WEEK1}/_SUCCESS`,
          ),
        ].sort(),
      );
    }
  });

  it('…and those values are exactly the server’s answer at run 2 (ground truth at that growth)', async () => {
    // A fresh simulator with the same seed, advanced once, serves what run 2 was served.
    const twin = await startSimulator({ seed: 11, growth: 0.05, scale: { postsPerDay: 60 } });
    try {
      twin.advance();
      const week1 = await readManifest(WEEK1);
      const schedule = findSchedule(config, SCHEDULE);
      for (const r of week1.reports) {
        const truth = truthRows(twin, findReport(schedule, r.reportId), week1.window);
        for (const format of ['parquet', 'csv'] as const) {
          const got = await readBackSummary(readBackSql(dir, r, format), r);
          expect(sameSummary(got, truthSummary(truth, r, got)), `${r.reportId} ${format}`).toEqual([]);
        }
      }
    } finally {
      await twin.close();
    }
  });

  it('run 2’s manifest lists week one as restated with rows and totals before → after', async () => {
    const [, second] = runs;
    const week1 = await readManifest(WEEK1);
    expect(second?.restated?.map((w) => w.window.end)).toEqual([WEEK1]);
    const restated = second?.restated?.[0];
    expect(restated?.manifestKey).toBe(manifestKey(config.output.prefix, SCHEDULE, WEEK1));
    for (const r of restated?.reports ?? []) {
      const before = week1First.reports.find((x) => x.reportId === r.reportId);
      const after = week1.reports.find((x) => x.reportId === r.reportId);
      expect(r.status).toBe('succeeded');
      expect(r.rows).toEqual({ before: before?.rowCount, after: after?.rowCount });
      for (const [metric, value] of Object.entries(r.totals)) {
        expect(value, `${r.reportId}.${metric}`).toEqual({
          before: before?.totals[metric] ?? null,
          after: after?.totals[metric] ?? null,
        });
      }
      expect(Number(r.totals.likes?.after)).toBeGreaterThan(Number(r.totals.likes?.before ?? Number.NaN));
    }
    expect(week1.history?.map((h) => [h.runId, h.kind])).toEqual([
      ['run-1', 'export'],
      ['run-2', 'restatement'],
    ]);
  });

  it('run 2’s email has a Revised section with those figures, and compares this week with revised week one', () => {
    const email = toStakeholders()[1];
    const restated = runs[1]?.restated?.[0];
    const posts = restated?.reports.find((r) => r.reportId === 'posts');
    const revised = posts?.totals.likes;
    if (!email || !revised || revised.before === null || revised.after === null)
      throw new Error('no revision');
    // small counters: the manifest holds them as JSON numbers
    const likes = { before: Number(revised.before), after: Number(revised.after) };
    const pct = (((likes.after - likes.before) / likes.before) * 100).toFixed(1);
    const line = `Week of 9 Nov · Posts: likes revised from ${en.format(likes.before)} to ${en.format(likes.after)}, +${pct} %`;
    expect(email.text).toContain('Revised (earlier windows re-exported by this run):');
    expect(email.text).toContain(line);
    expect(email.html).toContain('data-role="revised"');
    expect(email.html).toContain(line);
    // this week's KPI change is against week one as revised, not as first exported
    const now = Number(runs[1]?.reports.find((r) => r.reportId === 'posts')?.totals.likes ?? 0);
    const change = now - likes.after;
    expect(email.text).toContain(
      `Likes: ${en.format(now)}  ${change >= 0 ? '▲ +' : '▼ -'}${en.format(Math.abs(change))}`,
    );
  });

  it('the completion event lists week one with its manifest and replaced reports', () => {
    const second = runs[1];
    if (!second) throw new Error('no run 2');
    const detail = completedDetail(second, 'exports-bucket', 'k');
    expect(detail.restated).toEqual([
      {
        window: { start: '2026-11-09', end: WEEK1, timezone: 'Europe/Berlin' },
        manifest: {
          bucket: 'exports-bucket',
          key: manifestKey(config.output.prefix, SCHEDULE, WEEK1),
          uri: `s3://exports-bucket/${manifestKey(config.output.prefix, SCHEDULE, WEEK1)}`,
        },
        reports: ['campaigns', 'creators', 'posts', 'platforms'],
        failed: [],
      },
    ]);
  });

  it('a failing re-export of week two leaves its partition and _SUCCESS intact; week three succeeds', async () => {
    const third = runs[2];
    expect(third?.status).toBe('succeeded');
    expect(third?.window.end).toBe('2026-11-29');
    expect(Object.keys(week2Before).filter((k) => k.endsWith('_SUCCESS'))).toHaveLength(8);
    expect(await partitionFiles(WEEK2)).toEqual(week2Before);
    const restated = third?.restated?.[0];
    expect(restated?.window.end).toBe(WEEK2);
    expect(restated?.reports.map((r) => [r.reportId, r.status])).toEqual([
      ['campaigns', 'failed'],
      ['creators', 'failed'],
      ['posts', 'failed'],
      ['platforms', 'failed'],
    ]);
    expect(restated?.reports[0]?.error).toContain('HTTP 500');
    const week2 = await readManifest(WEEK2);
    expect(week2.reports).toEqual(runs[1]?.reports);
    expect(week2.history?.at(-1)).toMatchObject({ runId: 'run-3', kind: 'restatement' });
    expect(toStakeholders()[2]?.text).toContain('could not be re-exported, the earlier export stands');
    expect(
      await readdir(join(dir, `${config.output.prefix}${SCHEDULE}/posts/parquet/dt=2026-11-29`)),
    ).toContain('_SUCCESS');
  });
});
