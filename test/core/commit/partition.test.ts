import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import type { ReportingApi } from '#core/api/types';
import { ExporterError } from '#core/errors';
import { silentLog } from '#core/log';
import { exportReportStep } from '#core/run/export-step';
import { finalizeRun } from '#core/run/finalize';
import { planRun } from '#core/run/plan';
import { runSchedule } from '#core/run/run';
import type { Sink } from '#core/sink';
import { leftovers, readManifest, windowProblems } from '../../support/consistency';
import { pagedApi, postRows, postsConfig } from '../run/fakes';

const config = postsConfig(`      - id: creators
        route: creators/performance
        metrics: [likes]
`);
const REQUEST = { scheduleId: 'daily', scheduledTime: '2026-11-23T08:00:00Z' };
const POSTS = 'exports/daily/posts/csv/dt=2026-11-22/';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'commit-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
const win = () => ({ dir, prefix: 'exports/', scheduleId: 'daily', windowEnd: '2026-11-22' });

function api(posts: ReportingApi, creators: ReportingApi = pagedApi(postRows(30, 7), 10)): ReportingApi {
  return {
    pages: (req, o) => (req.route === 'posts/performance' ? posts.pages(req, o) : creators.pages(req, o)),
    close: async () => {},
  };
}

async function run(sink: Sink, a: ReportingApi, runId: string, reportIds?: string[]) {
  const { manifest } = await runSchedule(
    config,
    { ...REQUEST, ...(reportIds ? { reportIds } : {}) },
    {
      api: a,
      sink,
      mailer: null,
      log: silentLog,
      now: () => new Date(),
      newRunId: () => runId,
      tuning: { rowGroupRows: 100 },
    },
  );
  return manifest;
}

describe('commit protocol', () => {
  it('at every write of a re-run, the manifest and the partitions agree or _SUCCESS is absent', async () => {
    await run(createFsSink(dir), api(pagedApi(postRows(2500), 250)), 'first');
    const real = createFsSink(dir);
    const seen: string[][] = [];
    // Each write and the check after it run alone (the two reports commit in parallel), so every
    // check sees the output as it is between two writes.
    let queue: Promise<unknown> = Promise.resolve();
    const then = <T>(op: () => Promise<T>): Promise<T> => {
      const next = queue.then(async () => {
        const r = await op();
        seen.push(await windowProblems(win()));
        return r;
      });
      queue = next.catch(() => undefined);
      return next;
    };
    const watched: Sink = {
      ...real,
      putObject: (k, b, t) => then(() => real.putObject(k, b, t)),
      putIf: (k, b, t, c) => then(() => real.putIf(k, b, t, c)),
      moveObject: (f, t) => then(() => real.moveObject(f, t)),
      deleteObjects: (keys) => then(() => real.deleteObjects(keys)),
    };
    await run(watched, api(pagedApi(postRows(1200, 2), 250), pagedApi(postRows(45, 8), 10)), 'second');
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.flat()).toEqual([]);
    const m = await readManifest(win());
    expect(m?.reports.map((r) => [r.reportId, r.status, r.rowCount])).toEqual([
      ['posts', 'succeeded', 1200],
      ['creators', 'succeeded', 45],
    ]);
    expect(await leftovers(win())).toEqual([]);
  });

  it('`run --report posts` merges into the window manifest; the other report keeps its entry', async () => {
    await run(createFsSink(dir), api(pagedApi(postRows(300), 100)), 'full');
    const before = await readManifest(win());
    const mine = await run(createFsSink(dir), api(pagedApi(postRows(120, 3), 100)), 'posts-only', ['posts']);
    expect(mine.reports.map((r) => r.reportId)).toEqual(['posts']);
    const after = await readManifest(win());
    expect(after?.runId).toBe('posts-only');
    expect(after?.reports.map((r) => [r.reportId, r.rowCount])).toEqual([
      ['posts', 120],
      ['creators', 30],
    ]);
    expect(after?.reports[1]).toEqual(before?.reports[1]);
    expect(await windowProblems(win())).toEqual([]);
    const sink = createFsSink(dir);
    expect(await sink.list('exports/daily/_manifests/dt=2026-11-22/runs/')).toEqual([
      'exports/daily/_manifests/dt=2026-11-22/runs/full.json',
      'exports/daily/_manifests/dt=2026-11-22/runs/posts-only.json',
    ]);
  });

  it('a run that fails before any data (a rejected secret) leaves the partition, _SUCCESS and entry untouched', async () => {
    await run(createFsSink(dir), api(pagedApi(postRows(300), 100)), 'good');
    const before = await readManifest(win());
    const rejected: ReportingApi = {
      // biome-ignore lint/correctness/useYield: fails before its first page, as a refused token does
      async *pages(): AsyncIterable<never> {
        throw new ExporterError('AUTH_REJECTED', 'the token endpoint refused the client credentials');
      },
      close: async () => {},
    };
    const mine = await run(createFsSink(dir), api(rejected, rejected), 'refused');
    expect(mine.status).toBe('failed');
    expect(mine.reports.map((r) => r.error)).toEqual([
      'the token endpoint refused the client credentials',
      'the token endpoint refused the client credentials',
    ]);
    const after = await readManifest(win());
    expect(after?.reports).toEqual(before?.reports);
    expect((await readdir(join(dir, POSTS))).sort()).toEqual(['_SUCCESS', 'part-00000.csv']);
    expect(await windowProblems(win())).toEqual([]);
  });

  it('a failure half-way through a re-export leaves the previous partition whole (staged parts dropped)', async () => {
    await run(createFsSink(dir), api(pagedApi(postRows(2500), 250)), 'good');
    const before = await readManifest(win());
    await run(createFsSink(dir), api(pagedApi(postRows(2500, 4), 250, 7)), 'broken');
    expect((await readManifest(win()))?.reports[0]).toEqual(before?.reports[0]);
    expect(await windowProblems(win())).toEqual([]);
    expect(await leftovers(win())).toEqual([]);
  });

  it('the run releases the lease of every window its tasks wrote (an earlier window re-exported in it)', async () => {
    const sink = createFsSink(dir);
    const now = () => new Date();
    const earlier = { start: '2026-11-15', end: '2026-11-15', timezone: 'UTC' };
    const task = {
      runId: 'r',
      scheduleId: 'daily',
      reportId: 'posts',
      scheduledTime: REQUEST.scheduledTime,
      window: earlier,
    };
    const lease = (end: string) => sink.getObject(`exports/daily/_manifests/dt=${end}/_lease.json`);
    const step = await exportReportStep(config, task, null, {
      api: pagedApi(postRows(50), 25),
      sink,
      log: silentLog,
    });
    expect(step.status).toBe('done');
    expect(await lease('2026-11-15')).not.toBeNull();
    const plan = planRun(config, REQUEST, { now, newRunId: () => 'r' });
    await finalizeRun(config, { ...plan, tasks: [...plan.tasks, task] }, [], {
      sink,
      mailer: null,
      log: silentLog,
      now,
    });
    expect(await lease('2026-11-15')).toBeNull();
    expect(await lease('2026-11-22')).toBeNull();
    expect(await sink.list('exports/daily/posts/csv/dt=2026-11-15/')).toEqual([
      'exports/daily/posts/csv/dt=2026-11-15/_SUCCESS',
      'exports/daily/posts/csv/dt=2026-11-15/part-00000.csv',
    ]);
  });
});
