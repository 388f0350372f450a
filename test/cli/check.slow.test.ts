/** `report-exporter check` run as a user runs it, against the simulator over loopback. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '#simulator/server';
import { runCli } from '../support/run-cli';

let sim: Simulator;
let dir: string;
let configPath: string;

beforeAll(async () => {
  sim = await startSimulator({ seed: 7 });
  dir = await mkdtemp(join(tmpdir(), 'check-cli-'));
  configPath = join(dir, 'reports.yaml');
  await writeFile(
    configPath,
    `
api: { baseUrl: ${sim.baseUrl}, credentialsSecret: test/reporting }
schedules:
  - id: weekly
    cron: "0 8 ? * MON *"
    window: previous-week
    lookback: 1
    reports:
      - { id: platforms, route: platforms/performance, metrics: [likes, comments] }
`,
  );
  process.env.REPORTING_CLIENT_ID = sim.credentials.clientId;
  process.env.REPORTING_CLIENT_SECRET = sim.credentials.clientSecret;
});

afterAll(async () => {
  delete process.env.REPORTING_CLIENT_ID;
  delete process.env.REPORTING_CLIENT_SECRET;
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('report-exporter check', () => {
  it("prints each report's result and what a scheduled run costs, lookback included", async () => {
    const r = await runCli(['check', '-c', configPath, '--window', '2026-11-01..2026-11-02']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/platforms \(platforms\/performance\): ok/);
    expect(r.stdout).toMatch(
      /weekly: 2 windows \(lookback 1\) × 1 report\(s\) = at least 2 data requests per run/,
    );
    expect(r.stdout).toContain('all reports ok');
    expect(r.stdout + r.stderr).not.toContain(sim.credentials.clientSecret);
  });
});
