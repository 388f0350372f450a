/**
 * The silent-loss guards against simulators that read the API document differently from the
 * exporter: each array encoding against each, and the cursor under `meta`. A run against a server
 * that agrees is a plain success with no warnings; against one that disagrees, reports carry warnings.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import type { Config } from '#core/config/schema';
import { silentLog } from '#core/log';
import type { Manifest } from '#core/manifest';
import { runSchedule } from '#core/run/run';
import { type Dialect, type Simulator, startSimulator } from '#simulator/server';
import { exampleConfig, simulatorApi } from '../../e2e/helpers';

let sim: Simulator;
let dir: string;
let base: Config;

beforeAll(async () => {
  sim = await startSimulator({ seed: 4, scale: { postsPerDay: 40 } });
  dir = await mkdtemp(join(tmpdir(), 'guards-'));
  base = await exampleConfig(sim.baseUrl);
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

type Api = Partial<Config['api']>;

/** Runs the example config's weekly schedule (4 reports: campaigns, creators, posts, platforms). */
async function run(dialect: Partial<Dialect>, api: Api = {}): Promise<Manifest> {
  sim.setDialect({ arrayFormat: 'any', strict: false, cursorAt: 'nextCursor', ...dialect });
  const config: Config = { ...base, api: { ...base.api, pageSize: 27, ...api } };
  const client = simulatorApi(sim, config);
  try {
    const { manifest } = await runSchedule(
      config,
      { scheduleId: 'weekly-campaigns', scheduledTime: '2026-11-23T07:00:00Z' },
      {
        api: client,
        sink: createFsSink(dir),
        mailer: null,
        log: silentLog,
        now: () => new Date(),
        newRunId: () => 'run-guards',
      },
    );
    return manifest;
  } finally {
    await client.close();
  }
}

const warningsOf = (m: Manifest) =>
  Object.fromEntries(
    m.reports.map((r) => [r.reportId, (r.warnings ?? []).map((w) => `${w.code} ${w.column ?? ''}`.trim())]),
  );

const FORMATS = ['repeat', 'comma', 'brackets'] as const;

describe('against a server that reads arrays as the config says', () => {
  it.each(FORMATS)('%s on both sides: a plain success with no warnings (strict server)', async (format) => {
    const m = await run({ arrayFormat: format, strict: true }, { arrayFormat: format });
    expect(m.status).toBe('succeeded');
    expect(m.reports.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(m.reports.map((r) => r.warnings ?? [])).toEqual([[], [], [], []]);
    expect(m.reports.find((r) => r.reportId === 'posts')?.pages).toBeGreaterThan(1);
  });
});

describe('against a server that reads arrays differently', () => {
  it.each(
    FORMATS.flatMap((server) =>
      FORMATS.filter((c) => c !== server).map((config) => [server, config] as const),
    ),
  )(
    'a %s server with api.arrayFormat %s: every report names the metrics the server dropped',
    async (server, config) => {
      const m = await run({ arrayFormat: server }, { arrayFormat: config });
      const w = warningsOf(m);
      for (const r of m.reports) {
        if (r.status === 'failed') {
          // loud, not silent: a repeat server takes "likes,comments" as one unknown name, a comma
          // server finds no plain metrics= at all, and both answer 400
          expect(r.error).toContain('answered 400');
          continue;
        }
        const requested = base.schedules[0]?.reports.find((x) => x.id === r.reportId)?.metrics ?? [];
        expect(w[r.reportId]?.length, r.reportId).toBe(requested.length - 1);
        expect(w[r.reportId]?.every((x) => x.startsWith('METRIC_MISSING '))).toBe(true);
      }
      // never a plain success: each report either failed or carries warnings
      expect(m.reports.every((r) => r.status === 'failed' || (r.warnings?.length ?? 0) > 0)).toBe(true);
    },
  );
});

describe('against a server that puts the cursor under meta', () => {
  it('the paged reports stop at the first full page and name meta.nextCursor', async () => {
    const m = await run({ cursorAt: 'meta.nextCursor' });
    expect(m.status).toBe('succeeded');
    const posts = m.reports.find((r) => r.reportId === 'posts');
    expect(posts?.rowCount).toBe(27);
    expect(posts?.warnings).toEqual([
      expect.objectContaining({
        code: 'PAGE_FULL_NO_CURSOR',
        message: expect.stringContaining('set api.cursorPath: meta.nextCursor'),
      }),
    ]);
    expect(warningsOf(m).platforms).toEqual([]);
  });

  it('with api.cursorPath: meta.nextCursor the run pages through with no warnings', async () => {
    const m = await run(
      { cursorAt: 'meta.nextCursor', strict: true, arrayFormat: 'repeat' },
      { cursorPath: 'meta.nextCursor' },
    );
    expect(m.reports.map((r) => [r.status, r.error, r.warnings ?? []])).toEqual(
      Array(4).fill(['succeeded', null, []]),
    );
    const posts = m.reports.find((r) => r.reportId === 'posts');
    expect(posts?.rowCount).toBe(40 * 7);
  });
});
