import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import { parseManifest } from '#core/commit/window-manifest';
import type { Manifest, ManifestReport } from '#core/manifest';
import { entryBefore, restateWindow } from '#core/run/restate';
import type { RunPlan } from '#core/run/types';
import type { Sink } from '#core/sink';

const WEEK1 = { start: '2026-11-09', end: '2026-11-15', timezone: 'Europe/Berlin' };
const WEEK2 = { start: '2026-11-16', end: '2026-11-22', timezone: 'Europe/Berlin' };
const KEY = 'exports/weekly/_manifests/dt=2026-11-15/manifest.json';
const ORDER = ['posts', 'creators'];

function report(id: string, status: 'succeeded' | 'failed', rows: number, likes?: number): ManifestReport {
  return {
    reportId: id,
    route: 'posts/performance',
    status,
    rowCount: rows,
    pages: 1,
    columns: [{ name: 'likes', type: 'int64' }],
    totals: likes === undefined ? {} : { likes },
    error: status === 'failed' ? 'HTTP 500 after 5 retries' : null,
    files: [],
  };
}

const plan: RunPlan = {
  runId: 'run-2',
  scheduleId: 'weekly',
  scheduledTime: '2026-11-23T07:00:00Z',
  window: WEEK2,
  lookback: [{ scheduledTime: '2026-11-16T07:00:00.000Z', window: WEEK1 }],
  startedAt: '2026-11-23T07:00:01Z',
  tasks: [],
};
const earlier = { scheduledTime: '2026-11-16T07:00:00.000Z', window: WEEK1 };

const week1: Manifest = {
  manifestVersion: 1,
  scheduleId: 'weekly',
  runId: 'run-1',
  scheduledTime: '2026-11-16T07:00:00Z',
  window: WEEK1,
  startedAt: '2026-11-16T07:00:01Z',
  finishedAt: '2026-11-16T07:02:00Z',
  status: 'succeeded',
  reports: [report('posts', 'succeeded', 100, 1_234_567), report('creators', 'succeeded', 10, 50)],
};

let dir: string;
let sink: Sink;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'restate-'));
  sink = createFsSink(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function stored(): Promise<Manifest | null> {
  const body = await sink.getObject(KEY);
  return body ? parseManifest(body) : null;
}
const put = (m: Manifest) => sink.putObject(KEY, JSON.stringify(m), 'application/json');

describe('entryBefore', () => {
  it("returns the report's succeeded entry and starts the window's history with its first export", async () => {
    await put({ ...week1, reports: [week1.reports[0] as ManifestReport, report('creators', 'failed', 0)] });
    expect(await entryBefore(sink, KEY, 'posts')).toEqual({ rowCount: 100, totals: { likes: 1_234_567 } });
    expect(await entryBefore(sink, KEY, 'creators')).toBeNull();
    expect(await entryBefore(sink, KEY, 'absent')).toBeNull();
    const m = await stored();
    // seeded once, not once per call
    expect(m?.history?.map((h) => [h.runId, h.kind, h.reports.map((r) => r.status)])).toEqual([
      ['run-1', 'export', ['succeeded', 'failed']],
    ]);
    expect(m?.reports).toEqual([week1.reports[0], report('creators', 'failed', 0)]);
  });

  it('is null for a window never exported, and writes nothing', async () => {
    expect(await entryBefore(sink, KEY, 'posts')).toBeNull();
    expect(await stored()).toBeNull();
  });
});

describe('restateWindow', () => {
  it('records before → after from the outcomes, keeps a succeeded entry over a failed re-export, appends history', async () => {
    await put(week1);
    const before = {
      posts: await entryBefore(sink, KEY, 'posts'),
      creators: await entryBefore(sink, KEY, 'creators'),
    };
    // what the commit of the succeeded re-export leaves in the window's manifest (this run at the head)
    const m = await stored();
    if (!m) throw new Error('no manifest');
    await put({
      ...m,
      runId: 'run-2',
      reports: [report('posts', 'succeeded', 104, 1_301_220), week1.reports[1] as ManifestReport],
    });

    const restated = await restateWindow(sink, {
      plan,
      earlier,
      outcomes: [
        {
          window: WEEK1,
          manifest: report('posts', 'succeeded', 104, 1_301_220),
          top: [],
          previous: before.posts,
        },
        { window: WEEK1, manifest: report('creators', 'failed', 3), top: [], previous: before.creators },
      ],
      order: ORDER,
      manifestKey: KEY,
      finishedAt: '2026-11-23T07:03:00Z',
    });
    const manifest = await stored();
    expect(manifest?.status).toBe('succeeded');
    // the failed re-export keeps the earlier entry: its partition was left whole
    expect(manifest?.reports.map((r) => [r.reportId, r.status, r.rowCount, r.totals.likes])).toEqual([
      ['posts', 'succeeded', 104, 1_301_220],
      ['creators', 'succeeded', 10, 50],
    ]);
    expect(manifest?.history?.map((h) => [h.runId, h.kind, h.reports.map((r) => r.status)])).toEqual([
      ['run-1', 'export', ['succeeded', 'succeeded']],
      ['run-2', 'restatement', ['succeeded', 'failed']],
    ]);
    expect(restated).toEqual({
      window: WEEK1,
      manifestKey: KEY,
      reports: [
        {
          reportId: 'posts',
          status: 'succeeded',
          rows: { before: 100, after: 104 },
          totals: { likes: { before: 1_234_567, after: 1_301_220 } },
          error: null,
        },
        {
          reportId: 'creators',
          status: 'failed',
          rows: { before: 10, after: null },
          totals: { likes: { before: 50, after: null } },
          error: 'HTTP 500 after 5 retries',
        },
      ],
    });
  });

  it('a failed re-export of a report never exported is listed; a window never exported gets a manifest', async () => {
    const once = await restateWindow(sink, {
      plan,
      earlier,
      outcomes: [{ window: WEEK1, manifest: report('creators', 'failed', 0), top: [], previous: null }],
      order: ORDER,
      manifestKey: KEY,
      finishedAt: '2026-11-23T07:03:00Z',
    });
    expect(once.reports[0]?.rows).toEqual({ before: null, after: null });
    expect(await stored()).toMatchObject({
      runId: 'run-2',
      scheduledTime: '2026-11-16T07:00:00.000Z',
      window: WEEK1,
      status: 'failed',
    });
    const twice = await restateWindow(sink, {
      plan: { ...plan, runId: 'run-3' },
      earlier,
      outcomes: [{ window: WEEK1, manifest: report('posts', 'succeeded', 8, 12), top: [], previous: null }],
      order: ORDER,
      manifestKey: KEY,
      finishedAt: '2026-11-30T07:03:00Z',
    });
    expect((await stored())?.history?.map((h) => h.runId)).toEqual(['run-2', 'run-3']);
    expect(twice.reports[0]?.totals).toEqual({ likes: { before: null, after: 12 } });
  });
});
