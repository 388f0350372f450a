/**
 * Real `report-exporter run` processes against the simulator, for the run-integrity tests (two runs
 * at once, `kill -9`): not a test file.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Simulator } from '#simulator/server';
import { apiCredentials, type CliRun, runArgs, startCli } from '../support/run-cli';

export const AT = '2026-11-23T06:00:00Z';
export const WINDOW_END = '2026-11-22';

/** A config with two reports, small pages and parts, so a run takes a few seconds and many writes. */
export async function writeConfig(dir: string, sim: Simulator, name = 'reports.yaml'): Promise<string> {
  const path = join(dir, name);
  await writeFile(
    path,
    `
api: { baseUrl: ${sim.baseUrl}, credentialsSecret: test/reporting, pageSize: 100 }
output: { prefix: exports/, formats: [parquet, csv], maxRowsPerPart: 1000 }
schedules:
  - id: daily
    cron: "0 6 * * ? *"
    window: yesterday
    reports:
      - id: posts
        route: posts/performance
        metrics: [likes, shares]
      - id: platforms
        route: platforms/performance
        metrics: [likes]
`,
  );
  return path;
}

/** Starts `report-exporter run` of the daily schedule at `AT`, no email, with `flags`, in `cwd` against `sim`. */
export function startDailyRun(
  cwd: string,
  sim: Simulator,
  flags: readonly string[],
  env: NodeJS.ProcessEnv = {},
): CliRun {
  return startCli(runArgs('daily', AT, '--no-email', ...flags), {
    cwd,
    env: { ...apiCredentials(sim.credentials), ...env },
  });
}

/** The daily schedule's window written under `out`, for the consistency checks of `support/consistency`. */
export function dailyWindow(out: string) {
  return { dir: out, prefix: 'exports/', scheduleId: 'daily', windowEnd: WINDOW_END };
}
