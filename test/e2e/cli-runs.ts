/**
 * Real `report-exporter run` processes against the simulator, for the run-integrity tests (two runs
 * at once, `kill -9`): not a test file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Simulator } from '#simulator/server';

const BIN = new URL('../../bin/report-exporter.mjs', import.meta.url).pathname;

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

export interface Exited {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliRun {
  readonly child: ChildProcess;
  readonly done: Promise<Exited>;
}

/** Starts `report-exporter ARGS` in `cwd` with the simulator's credentials. */
export function startCli(
  cwd: string,
  sim: Simulator,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): CliRun {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: {
      ...process.env,
      NO_COLOR: '1',
      REPORTING_CLIENT_ID: sim.credentials.clientId,
      REPORTING_CLIENT_SECRET: sim.credentials.clientSecret,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const done = new Promise<Exited>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}
