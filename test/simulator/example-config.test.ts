import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Route } from '#core/config/routes';
import type { Simulator } from '#simulator/server';
import { get, qs, start } from './helpers';

interface ExampleReport {
  id: string;
  route: string;
  metrics?: string[];
  filters?: Record<string, string | string[]>;
}
interface ExampleConfig {
  schedules: { reports: ExampleReport[] }[];
}

// read as plain YAML so this test checks the simulator, not the config loader
const config = parse(readFileSync(new URL('../../reports.yaml', import.meta.url), 'utf8')) as ExampleConfig;
const reports = config.schedules.flatMap((s) => s.reports);

let sim: Simulator;
let jwt: string;
beforeAll(async () => {
  ({ sim, jwt } = await start());
});
afterAll(() => sim.close());

describe('the example reports.yaml against the simulator', () => {
  it('covers all nine routes', () => {
    expect(new Set(reports.map((r) => r.route)).size).toBe(9);
  });

  it.each(reports.map((r) => [r.id, r] as const))(
    'accepts every metric and filter of report %s',
    async (_id, report) => {
      const { platform, contentType } = (report.filters ?? {}) as { platform?: string; contentType?: string };
      const valid = sim.truth.validMetrics(report.route as Route, { platform, contentType });
      for (const m of report.metrics ?? []) expect(valid, `${report.route} ${m}`).toContain(m);
      const params = {
        startDate: '2026-10-01',
        endDate: '2026-10-31',
        ...report.filters,
        metrics: report.metrics,
      };
      const r = await get(sim, jwt, `/v2/${report.route}?${qs(params)}`);
      expect(r.status, r.text).toBe(200);
    },
  );
});
