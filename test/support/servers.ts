/** Local AWS stand-ins for tests (not a test file): moto_server and aws-ses-v2-local on loopback. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { freePort } from './ports';

export const hasMoto = spawnSync('sh', ['-c', 'command -v moto_server'], { encoding: 'utf8' }).status === 0;
export const MOTO_MISSING = 'moto_server is not on PATH: pip install "moto[server]"';

/** Skips (naming what to install) outside CI, fails in CI, when moto_server is missing. */
export function needMoto(ctx: { skip: (note?: string) => void }): void {
  if (hasMoto) return;
  if (process.env.CI === 'true') throw new Error(MOTO_MISSING);
  ctx.skip(MOTO_MISSING);
}

export interface LocalServer {
  readonly endpoint: string;
  stop(): Promise<void>;
}

async function waitFor(url: string, child: ChildProcess, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${what} did not start`);
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
}

/** moto_server on loopback (Secrets Manager, SSM, Glue, EventBridge, SQS …). */
export async function startMoto(): Promise<LocalServer> {
  const port = await freePort();
  const child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${port}`;
  await waitFor(endpoint, child, 'moto_server');
  return { endpoint, stop: stopper(child) };
}

/** aws-ses-v2-local on loopback; its `/store` holds what was sent. */
export async function startSes(root: string): Promise<LocalServer> {
  const port = await freePort();
  const cli = join(root, 'node_modules', 'aws-ses-v2-local', 'dist', 'cli.js');
  const child = spawn(process.execPath, [cli, '--host', '127.0.0.1', '--port', String(port)], {
    stdio: 'ignore',
  });
  const endpoint = `http://127.0.0.1:${port}`;
  await waitFor(`${endpoint}/health-check`, child, 'aws-ses-v2-local');
  return { endpoint, stop: stopper(child) };
}
