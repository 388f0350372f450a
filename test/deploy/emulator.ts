/**
 * moto_server started through the test-only launcher (moto_launcher.py: the CloudFormation models moto
 * lacks, backed by its own services), its log kept to look for tracebacks, and the environment the
 * `cdk` CLI and the SDK clients need to talk to it (not a test file).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../support/ports';

export const ACCOUNT = '123456789012';
export const REGION = 'us-east-1';
export const ROOT = join(import.meta.dirname, '..', '..');
const LAUNCHER = join(import.meta.dirname, 'moto_launcher.py');

/** The python behind `moto_server` (the launcher imports moto from it). */
const python = ['python3', 'python'].find(
  (p) => spawnSync(p, ['-c', 'import moto.server'], { stdio: 'ignore' }).status === 0,
);

export interface Emulator {
  readonly endpoint: string;
  readonly port: number;
  /** Everything the server wrote so far (requests, warnings, tracebacks). */
  log(): string;
  /** Environment for the `cdk` CLI and SDK clients: dummy keys, the emulator's endpoints, no network calls. */
  env(credentials?: { accessKeyId: string; secretAccessKey: string }): NodeJS.ProcessEnv;
  clientConfig(credentials?: { accessKeyId: string; secretAccessKey: string }): {
    endpoint: string;
    region: string;
    credentials: { accessKeyId: string; secretAccessKey: string };
  };
  stop(): Promise<void>;
}

export async function startEmulator(options: { iamFixes?: boolean } = {}): Promise<Emulator> {
  if (!python) throw new Error('moto_server is on PATH, but neither python3 nor python imports moto');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'moto-'));
  const logFile = join(dir, 'moto.log');
  const fd = openSync(logFile, 'w');
  const args = [LAUNCHER, String(port), ...(options.iamFixes ? ['--iam-fixes'] : [])];
  const child: ChildProcess = spawn(python, args, { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const endpoint = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`moto launcher exited: ${readFileSync(logFile, 'utf8')}`);
    try {
      if ((await fetch(`${endpoint}/moto-api/`)).ok) break;
    } catch {
      if (i > 600) throw new Error('moto launcher did not start within 60 s');
    }
    await sleep(100);
  }
  const dummy = { accessKeyId: 'test', secretAccessKey: 'test' };
  const env = (credentials = dummy): NodeJS.ProcessEnv => {
    const base: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) {
      if (!/^AWS_|^CDK_/.test(k)) base[k] = v;
    }
    return {
      ...base,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_REGION: REGION,
      AWS_DEFAULT_REGION: REGION,
      AWS_ENDPOINT_URL: endpoint,
      // The CLI hands CloudFormation a template URL; moto reads the bucket from the host name unless
      // it is `localhost`, so that one URL must name localhost.
      AWS_ENDPOINT_URL_S3_FOR_CLOUDFORMATION: `http://localhost:${port}`,
      AWS_EC2_METADATA_DISABLED: 'true',
      CDK_DISABLE_VERSION_CHECK: '1',
      CDK_DISABLE_CLI_TELEMETRY: 'true',
    };
  };
  return {
    endpoint,
    port,
    log: () => readFileSync(logFile, 'utf8'),
    env,
    clientConfig: (credentials = dummy) => ({ endpoint, region: REGION, credentials }),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

const CDK = join(ROOT, 'node_modules', '.bin', 'cdk');

/**
 * Runs the `cdk` CLI against the emulator (no notices, no approval prompt); resolves with the seconds
 * it took, rejects with its output on failure. Shared by the deploy test and `npm run deploy:local`.
 */
export function cdkAgainst(moto: Emulator, args: string[], cwd: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(CDK, [...args, '--no-notices', '--require-approval', 'never'], {
      cwd,
      env: moto.env(),
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(Math.round((performance.now() - started) / 100) / 10)
        : reject(new Error(`cdk ${args[0]} failed (${code}):\n${output}`)),
    );
  });
}

/** The tracebacks in the emulator's log (moto can answer CREATE_COMPLETE after an internal error). */
export function tracebacks(log: string): string[] {
  return log.split(/(?=Traceback \(most recent call last\))/).filter((p) => p.startsWith('Traceback'));
}
