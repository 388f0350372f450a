import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import { isExporterError } from '#core/errors';
import { silentLog } from '#core/log';
import type { Manifest, ManifestReport } from '#core/manifest';
import { finalizeRun, previousManifest } from '#core/run/finalize';
import { planRun } from '#core/run/plan';
import { runSchedule } from '#core/run/run';
import type { Sink } from '#core/sink';
import { recordingMailer } from '../../support/mailer';
import { pagedApi, postRows, postsConfig, weeklyConfig } from './fakes';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'finalize-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const CONFIG = weeklyConfig();

function report(id: string, status: 'succeeded' | 'failed', likes: number): ManifestReport {
  return {
    reportId: id,
    route: 'platforms/performance',
    status,
    rowCount: 1,
    pages: 1,
    columns: [{ name: 'likes', type: 'int64' }],
    totals: status === 'succeeded' ? { likes } : {},
    error: status === 'failed' ? 'HTTP 500' : null,
    files: [],
  };
}

describe('finalizeRun', () => {
  it('writes a partial manifest in plan order and mails the summary once', async () => {
    const sink = createFsSink(dir);
    const plan = planRun(
      CONFIG,
      { scheduleId: 'weekly', scheduledTime: '2026-11-23T07:00:00Z' },
      { now: () => new Date('2026-11-23T07:00:00Z'), newRunId: () => 'run-1' },
    );
    const mailer = recordingMailer();
    const result = await finalizeRun(
      CONFIG,
      plan,
      [
        { manifest: report('b', 'failed', 0), top: [] },
        { manifest: report('a', 'succeeded', 5), top: [] },
      ],
      { sink, mailer, log: silentLog, now: () => new Date('2026-11-23T07:05:00Z') },
    );
    expect(result.manifestKey).toBe('exports/weekly/_manifests/dt=2026-11-22/manifest.json');
    expect(result.manifest.status).toBe('partial');
    expect(result.manifest.reports.map((r) => r.reportId)).toEqual(['a', 'b']);
    expect(
      JSON.parse(new TextDecoder().decode((await sink.getObject(result.manifestKey)) ?? new Uint8Array())),
    ).toEqual(result.manifest);
    expect(result.emailed).toBe(1);
    expect(result.emailError).toBeUndefined();
    expect(mailer.sent[0]?.subject).toMatch(/^PARTIAL: /);
  });

  it('returns a failed email as emailError beside the written manifest, instead of throwing', async () => {
    const sink = createFsSink(dir);
    const plan = planRun(
      CONFIG,
      { scheduleId: 'weekly', scheduledTime: '2026-11-23T07:00:00Z' },
      { now: () => new Date('2026-11-23T07:00:00Z'), newRunId: () => 'run-2' },
    );
    const refusing = { send: () => Promise.reject(new Error('SES said MessageRejected')) };
    const result = await finalizeRun(CONFIG, plan, [{ manifest: report('a', 'succeeded', 5), top: [] }], {
      sink,
      mailer: refusing,
      log: silentLog,
      now: () => new Date('2026-11-23T07:05:00Z'),
    });
    expect(result.emailed).toBe(0);
    expect(isExporterError(result.emailError, 'EMAIL_FAILED')).toBe(true);
    expect(result.emailError?.message).toBe('the summary email was not sent: SES said MessageRejected');
    // the run is recorded all the same: the returned manifest is the one written
    expect(result.manifest.status).toBe('succeeded');
    const written = (key: string) =>
      sink.getObject(key).then((b) => JSON.parse(new TextDecoder().decode(b ?? new Uint8Array())));
    expect(await written(result.runRecordKey)).toEqual(result.manifest);
    expect((await written(result.manifestKey)).reports).toEqual(result.manifest.reports);
  });

  it('sends nothing without a mailer', async () => {
    const sink = createFsSink(dir);
    const plan = planRun(
      CONFIG,
      { scheduleId: 'weekly', scheduledTime: '2026-11-23T07:00:00Z' },
      { now: () => new Date(), newRunId: () => 'r' },
    );
    const result = await finalizeRun(
      CONFIG,
      plan,
      [
        { manifest: report('a', 'succeeded', 1), top: [] },
        { manifest: report('b', 'succeeded', 1), top: [] },
      ],
      { sink, mailer: null, log: silentLog, now: () => new Date() },
    );
    expect(result.emailed).toBe(0);
  });
});

describe('previousManifest', () => {
  it('finds the latest manifest of the schedule before this window end, skipping unreadable ones', async () => {
    const sink = createFsSink(dir);
    const manifest = (end: string): Manifest => ({
      manifestVersion: 1,
      scheduleId: 'weekly',
      runId: end,
      scheduledTime: 't',
      window: { start: end, end, timezone: 'UTC' },
      startedAt: 's',
      finishedAt: 'f',
      status: 'succeeded',
      reports: [],
    });
    for (const end of ['2026-11-08', '2026-11-15', '2026-11-22', '2026-11-29']) {
      await sink.putObject(
        `exports/weekly/_manifests/dt=${end}/manifest.json`,
        JSON.stringify(manifest(end)),
        'application/json',
      );
    }
    expect((await previousManifest(sink, 'exports/', 'weekly', '2026-11-22'))?.runId).toBe('2026-11-15');
    expect(await previousManifest(sink, 'exports/', 'weekly', '2026-11-08')).toBeNull();
    await sink.putObject(
      'exports/weekly/_manifests/dt=2026-11-21/manifest.json',
      '{not json',
      'application/json',
    );
    expect(await previousManifest(sink, 'exports/', 'weekly', '2026-11-22')).toBeNull();
  });
});

describe('runSchedule', () => {
  it("commits each folder's parts, then its manifest entry, then its _SUCCESS; the run record and the window manifest last", async () => {
    const real = createFsSink(dir);
    const order: string[] = [];
    const sink: Sink = {
      ...real,
      async moveObject(from, to) {
        order.push(`move ${to}`);
        return real.moveObject(from, to);
      },
      async putObject(key, body, type) {
        order.push(`put ${key}`);
        return real.putObject(key, body, type);
      },
      async putIf(key, body, type, condition) {
        if (!key.endsWith('_lease.json')) order.push(`put ${key}`);
        return real.putIf(key, body, type, condition);
      },
    };
    await runSchedule(
      postsConfig(),
      { scheduleId: 'daily', scheduledTime: '2026-11-23T08:00:00Z' },
      {
        api: pagedApi(postRows(2500), 400),
        sink,
        mailer: null,
        log: silentLog,
        now: () => new Date(),
        newRunId: () => 'r',
        tuning: { rowGroupRows: 300 },
      },
    );
    const manifest = 'put exports/daily/_manifests/dt=2026-11-22/manifest.json';
    expect(order.at(-1)).toBe(manifest);
    expect(order.at(-2)).toBe('put exports/daily/_manifests/dt=2026-11-22/runs/r.json');
    for (const format of ['parquet', 'csv']) {
      const folder = `exports/daily/posts/${format}/dt=2026-11-22/`;
      const success = order.indexOf(`put ${folder}_SUCCESS`);
      const parts = order.filter((k) => k.startsWith(`move ${folder}part-`));
      expect(parts).toHaveLength(3);
      for (const p of parts) expect(order.indexOf(p)).toBeLessThan(success);
      const entry = order.lastIndexOf(manifest, success);
      expect(entry).toBeGreaterThan(Math.max(...parts.map((p) => order.indexOf(p))));
    }
    expect(await real.list('exports/daily/_staging/')).toEqual([]);
    expect(await real.getObject('exports/daily/_manifests/dt=2026-11-22/_lease.json')).toBeNull();
  });
});
