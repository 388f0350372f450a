/** `check` against simulators that read arrays in each encoding and put the cursor under meta. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '#core/api/client';
import type { ArrayFormat } from '#core/api/types';
import type { Config } from '#core/config/schema';
import { checkReport, describeCheck } from '#core/run/check';
import { createHttp } from '#http';
import { type Dialect, type Simulator, startSimulator } from '#simulator/server';
import { exampleConfig } from '../../e2e/helpers';

let sim: Simulator;
let config: Config;
const WINDOW = { start: '2026-11-16', end: '2026-11-17', timezone: 'UTC' };

beforeAll(async () => {
  sim = await startSimulator({ seed: 2, scale: { postsPerDay: 30 } });
  config = await exampleConfig(sim.baseUrl);
});
afterAll(() => sim.close());

const clientFor = (arrayFormat: ArrayFormat) =>
  createApiClient({
    baseUrl: sim.baseUrl,
    credentials: async () => sim.credentials,
    arrayFormat,
    pageSize: 5,
    http: createHttp,
  });

async function checkAll(dialect: Partial<Dialect>) {
  sim.setDialect({ arrayFormat: 'any', strict: false, cursorAt: 'nextCursor', ...dialect });
  const reports = config.schedules.flatMap((s) => s.reports);
  return Promise.all(reports.map((r) => checkReport(config, r, WINDOW, clientFor)));
}

describe('report-exporter check', () => {
  it('against a server that agrees: every report ok, every metric returned, cursor where expected', async () => {
    const results = await checkAll({ arrayFormat: 'repeat', strict: true });
    expect(results.filter((r) => !r.ok)).toEqual([]);
    const campaigns = results.find((r) => r.reportId === 'campaigns');
    expect(campaigns).toMatchObject({
      rows: 5,
      metricsMissing: [],
      idFieldsMissing: [],
      cursor: 'at nextCursor',
    });
  });

  it.each(['comma', 'brackets'] as const)(
    'against a %s server (config says repeat) names %s',
    async (format) => {
      const results = await checkAll({ arrayFormat: format });
      const campaigns = results.find((r) => r.reportId === 'campaigns');
      expect(campaigns?.ok).toBe(false);
      expect(campaigns?.metricsMissing.length).toBeGreaterThan(0);
      expect(campaigns?.arrayFormatThatWorks).toBe(format);
      expect(describeCheck(campaigns as NonNullable<typeof campaigns>, 'repeat')).toContain(
        `set api.arrayFormat: ${format}`,
      );
    },
  );

  it('against a strict comma server (repeat answers 400) still names comma', async () => {
    const results = await checkAll({ arrayFormat: 'comma', strict: true });
    const posts = results.find((r) => r.reportId === 'posts');
    expect(posts?.error).toContain('answered 400');
    expect(posts?.arrayFormatThatWorks).toBe('comma');
    expect(describeCheck(posts as NonNullable<typeof posts>, 'repeat')).toContain(
      'set api.arrayFormat: comma',
    );
  });

  it('against a server with the cursor under meta: says where it is', async () => {
    const results = await checkAll({ cursorAt: 'meta.nextCursor' });
    const posts = results.find((r) => r.reportId === 'posts');
    expect(posts?.ok).toBe(false);
    expect(posts?.cursor).toBe(
      'not at nextCursor but at meta.nextCursor: set api.cursorPath: meta.nextCursor',
    );
  });
});

describe('describeCheck with a valid set a 400 named', () => {
  const names = Array.from({ length: 30 }, (_, i) => `metricNumber${i}`);
  const result = {
    reportId: 'posts',
    route: 'posts/performance' as const,
    ok: false,
    rows: 0,
    metricsReturned: [],
    metricsMissing: [],
    idFieldsMissing: [],
    cursor: 'unknown',
    error: `GET /v2/posts/performance answered 400 Bad Request: Invalid metrics: x. Valid metrics: ${names.join(', ')} (valid metrics named by the server: ${names.join(', ')})`,
    validMetrics: names,
  };

  it('prints the set once, wrapped at 100 columns, and the server text points to it', () => {
    const text = describeCheck(result, 'repeat');
    for (const n of names) expect(text.split(new RegExp(`\\b${n}\\b`)).length - 1, n).toBe(1);
    expect(text).toContain('Valid metrics: (the 30 names below)');
    expect(text).toContain('valid metrics on posts/performance (30), as the server listed them:');
    const listed = text.split('\n').filter((l) => l.startsWith('    '));
    expect(listed.length).toBeGreaterThan(4);
    for (const line of listed) expect(line.length, line).toBeLessThanOrEqual(100);
  });
});
