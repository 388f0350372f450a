/**
 * The real `report-exporter` command, run as a user runs it: a child process of this Node on
 * `bin/report-exporter.mjs`, with the environment a test gives it (the API credentials through the
 * CLI's env override of the secret, local AWS endpoints). Not a test file.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';

const BIN = new URL('../../bin/report-exporter.mjs', import.meta.url).pathname;

export interface CliResult {
  /** The exit code; -1 when the process was killed (timeout or signal). */
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  /** Working directory (default: this process's, the repository under vitest). */
  readonly cwd?: string;
  /** Added to this process's environment, after `NO_COLOR=1`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Node options before the script, e.g. `--max-old-space-size=256`. */
  readonly node?: readonly string[];
  /** Default 60 s. */
  readonly timeoutMs?: number;
  /** Run as this user and group (a test run as root uses it to meet permissions root ignores). */
  readonly user?: { readonly uid: number; readonly gid: number };
}

const environment = (options: CliOptions): NodeJS.ProcessEnv => ({
  ...process.env,
  NO_COLOR: '1',
  ...options.env,
});

/** Runs `report-exporter ARGS` to its end. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...(options.node ?? []), BIN, ...args],
      {
        env: environment(options),
        timeout: options.timeoutMs ?? 60_000,
        ...(options.cwd ? { cwd: options.cwd } : {}),
        ...(options.user ?? {}),
      },
      (err, stdout, stderr) => {
        const code = err && typeof err.code === 'number' ? err.code : err ? -1 : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
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

/** Starts `report-exporter ARGS` without waiting for it: for tests that kill it or run two at once. */
export function startCli(args: readonly string[], options: CliOptions = {}): CliRun {
  const child = spawn(process.execPath, [...(options.node ?? []), BIN, ...args], {
    env: environment(options),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
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

/** `run --schedule SCHEDULE --at AT` and the flags given (output, email, config …). */
export function runArgs(schedule: string, at: string, ...flags: string[]): string[] {
  return ['run', '--schedule', schedule, '--at', at, ...flags];
}

/** `backfill --schedule SCHEDULE --from FROM --to TO` and the flags given. */
export function backfillArgs(schedule: string, from: string, to: string, ...flags: string[]): string[] {
  return ['backfill', '--schedule', schedule, '--from', from, '--to', to, ...flags];
}

/** The API client's credentials as the CLI's env override of the Secrets Manager secret. */
export function apiCredentials(creds: { readonly clientId: string; readonly clientSecret: string }) {
  return { REPORTING_CLIENT_ID: creds.clientId, REPORTING_CLIENT_SECRET: creds.clientSecret };
}

/** Fake AWS keys and a region for the SDK, plus the `AWS_ENDPOINT_URL_*` of the local servers given. */
export function localAws(endpoints: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'us-east-1', ...endpoints };
}
