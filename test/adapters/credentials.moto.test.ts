/**
 * The credentials provider against moto_server's Secrets Manager over HTTP, reached the way the
 * product reaches any endpoint: through the SDK's own AWS_ENDPOINT_URL_SECRETS_MANAGER.
 */
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentialsProvider } from '#adapters/credentials';
import { isExporterError } from '#core/errors';
import { hasMoto, type LocalServer, needMoto, startMoto } from '../support/servers';

describe('credentials provider against moto_server', () => {
  let moto: LocalServer | undefined;
  const saved: Record<string, string | undefined> = {};
  const ENV = {
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'testing',
    AWS_SECRET_ACCESS_KEY: 'testing',
  };

  beforeAll(async () => {
    if (!hasMoto) return;
    moto = await startMoto();
    const { endpoint } = moto;
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
    await moto?.stop();
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
