import { describe, expect, it } from 'vitest';
import type { Manifest, ManifestReport } from '#core/manifest';
import { restateWindow } from '#core/run/restate';
import type { RunPlan } from '#core/run/types';

const WEEK1 = { start: '2026-11-09', end: '2026-11-15', timezone: 'Europe/Berlin' };
const WEEK2 = { start: '2026-11-16', end: '2026-11-22', timezone: 'Europe/Berlin' };
const KEY = 'exports/weekly/_manifests/dt=2026-11-15/manifest.json';

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

describe('restateWindow', () => {
  it('replaces re-exported reports, keeps the first export in history, and records before → after', () => {
    const { manifest, restated } = restateWindow({
      plan,
      earlier: plan.lookback[0] ?? { scheduledTime: '', window: WEEK1 },
      previous: week1,
      outcomes: [
        { window: WEEK1, manifest: report('posts', 'succeeded', 104, 1_301_220), top: [] },
        { window: WEEK1, manifest: report('creators', 'failed', 3), top: [] },
      ],
      manifestKey: KEY,
      finishedAt: '2026-11-23T07:03:00Z',
    });
    expect(manifest.runId).toBe('run-1');
    expect(manifest.status).toBe('succeeded');
    // the failed re-export keeps the earlier entry: its partition was left whole
    expect(manifest.reports.map((r) => [r.reportId, r.status, r.rowCount, r.totals.likes])).toEqual([
      ['posts', 'succeeded', 104, 1_301_220],
      ['creators', 'succeeded', 10, 50],
    ]);
    expect(manifest.history?.map((h) => [h.runId, h.kind, h.reports.map((r) => r.status)])).toEqual([
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

  it('appends to an existing history, and builds a manifest for a window never exported', () => {
    const once = restateWindow({
      plan,
      earlier: { scheduledTime: '2026-11-16T07:00:00.000Z', window: WEEK1 },
      previous: null,
      outcomes: [{ window: WEEK1, manifest: report('posts', 'succeeded', 7, 9), top: [] }],
      manifestKey: KEY,
      finishedAt: '2026-11-23T07:03:00Z',
    });
    expect(once.manifest).toMatchObject({
      runId: 'run-2',
      scheduledTime: '2026-11-16T07:00:00.000Z',
      window: WEEK1,
    });
    expect(once.restated.reports[0]?.rows).toEqual({ before: null, after: 7 });
    const twice = restateWindow({
      plan: { ...plan, runId: 'run-3' },
      earlier: { scheduledTime: '2026-11-16T07:00:00.000Z', window: WEEK1 },
      previous: once.manifest,
      outcomes: [{ window: WEEK1, manifest: report('posts', 'succeeded', 8, 12), top: [] }],
      manifestKey: KEY,
      finishedAt: '2026-11-30T07:03:00Z',
    });
    expect(twice.manifest.history?.map((h) => h.runId)).toEqual(['run-2', 'run-3']);
    expect(twice.restated.reports[0]?.totals).toEqual({ likes: { before: 9, after: 12 } });
  });
});
