import { execFile } from 'node:child_process';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node bin/report-exporter.mjs ARGS` from the repo root, as a user would. */
export function runCli(args: readonly string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/report-exporter.mjs', ...args],
      { timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } },
      (err, stdout, stderr) => {
        const code = err && typeof err.code === 'number' ? err.code : err ? -1 : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
