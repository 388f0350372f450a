/**
 * The credentials provider against moto_server's Secrets Manager over HTTP, reached the way the
 * product reaches any endpoint: through the SDK's own AWS_ENDPOINT_URL_SECRETS_MANAGER.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentialsProvider } from '#adapters/credentials';
import { isExporterError } from '#core/errors';
import { freePort } from '../support/ports';

const hasMoto = spawnSync('sh', ['-c', 'command -v moto_server'], { encoding: 'utf8' }).status === 0;
const INSTALL = 'moto_server is not on PATH: pip install "moto[server]"';

/** Skips (naming what to install) outside CI, fails in CI, when moto_server is missing. */
function needMoto(ctx: { skip: (note?: string) => void }): void {
  if (hasMoto) return;
  if (process.env.CI === 'true') throw new Error(INSTALL);
  ctx.skip(INSTALL);
}

describe('credentials provider against moto_server', () => {
  let moto: ChildProcess;
  let endpoint = '';
  const saved: Record<string, string | undefined> = {};
  const ENV = {
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'testing',
    AWS_SECRET_ACCESS_KEY: 'testing',
  };

  beforeAll(async () => {
    if (!hasMoto) return;
    const port = await freePort();
    endpoint = `http://127.0.0.1:${port}`;
    moto = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    await waitForHttp(endpoint, 20_000);
    for (const [k, v] of Object.entries({ ...ENV, AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoint })) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    const admin = new SecretsManagerClient({ endpoint, region: ENV.AWS_REGION });
    await admin.send(
      new CreateSecretCommand({
        Name: 'reporting/v2/client',
        SecretString: JSON.stringify({ clientId: 'moto-client', clientSecret: 'moto-secret-123' }),
      }),
    );
    await admin.send(new CreateSecretCommand({ Name: 'reporting/v2/broken', SecretString: 'not json' }));
  });

  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    if (moto && moto.exitCode === null) {
      const exited = new Promise((resolve) => moto.once('exit', resolve));
      moto.kill('SIGTERM');
      await exited;
    }
  });

  it('reads {"clientId","clientSecret"} from the secret through AWS_ENDPOINT_URL_SECRETS_MANAGER', async (ctx) => {
    needMoto(ctx);
    const provider = createCredentialsProvider({ secretId: 'reporting/v2/client', env: {} });
    expect(await provider()).toEqual({ clientId: 'moto-client', clientSecret: 'moto-secret-123' });
  });

  it('reports a secret that does not exist', async (ctx) => {
    needMoto(ctx);
    const provider = createCredentialsProvider({ secretId: 'reporting/v2/absent', env: {} });
    const err = await provider().catch((e: unknown) => e);
    expect(isExporterError(err, 'CREDENTIALS_MISSING')).toBe(true);
    expect((err as Error).message).toContain('"reporting/v2/absent" was not found');
  });

  it('reports a secret that is not JSON', async (ctx) => {
    needMoto(ctx);
    const provider = createCredentialsProvider({ secretId: 'reporting/v2/broken', env: {} });
    const err = await provider().catch((e: unknown) => e);
    expect(isExporterError(err, 'CREDENTIALS_INVALID')).toBe(true);
    expect((err as Error).message).not.toContain('not json');
  });
});

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      await fetch(`${url}/moto-api/`);
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`moto_server did not answer at ${url} within ${timeoutMs} ms`);
}
