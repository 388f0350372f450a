import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
  SecretsManagerServiceException,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { createCredentialsProvider } from '#adapters/credentials';
import { type ExporterError, isExporterError } from '#core/errors';

const CANARY = 'CANARY-secret-value-51d2';
const SECRET = JSON.stringify({ clientId: 'client-7', clientSecret: CANARY });

function setup(env: Record<string, string> = {}) {
  const client = new SecretsManagerClient({
    region: 'eu-west-1',
    credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
  });
  const sm = mockClient(client);
  let t = 1_000_000;
  const provider = createCredentialsProvider({
    secretId: 'reporting/v2/client',
    secretsManager: client,
    env,
    now: () => t,
  });
  return { sm, provider, advance: (ms: number) => (t += ms) };
}

async function rejection(p: Promise<unknown>): Promise<ExporterError> {
  try {
    await p;
  } catch (err: unknown) {
    if (isExporterError(err)) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('credentials provider', () => {
  it('uses REPORTING_CLIENT_ID and REPORTING_CLIENT_SECRET when both are set, without calling Secrets Manager', async () => {
    const { sm, provider } = setup({ REPORTING_CLIENT_ID: 'env-id', REPORTING_CLIENT_SECRET: 'env-secret' });
    expect(await provider()).toEqual({ clientId: 'env-id', clientSecret: 'env-secret' });
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });

  it('names the missing variable when only one of the two is set, without reading the secret', async () => {
    for (const [set, missing] of [
      ['REPORTING_CLIENT_ID', 'REPORTING_CLIENT_SECRET'],
      ['REPORTING_CLIENT_SECRET', 'REPORTING_CLIENT_ID'],
    ] as const) {
      const { sm, provider } = setup({ [set]: 'value' });
      const err = await rejection(provider());
      expect(err.code).toBe('CREDENTIALS_MISSING');
      expect(err.message).toBe(
        `${missing} is not set (${set} is): set both for a local run, or neither to read the API credentials from the Secrets Manager secret "reporting/v2/client"`,
      );
      expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
    }
  });

  it('names a variable set to only whitespace (a usage error, exit 2), without reading the secret', async () => {
    for (const [blank, other] of [
      ['REPORTING_CLIENT_ID', 'REPORTING_CLIENT_SECRET'],
      ['REPORTING_CLIENT_SECRET', 'REPORTING_CLIENT_ID'],
    ] as const) {
      for (const otherValue of ['value', undefined]) {
        const { sm, provider } = setup({ [blank]: ' \r\n', ...(otherValue ? { [other]: otherValue } : {}) });
        const err = await rejection(provider());
        expect(err.code).toBe('CREDENTIALS_MISSING');
        expect(err.message).toMatch(new RegExp(`^${blank} is set but holds only whitespace: `));
        expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
      }
    }
  });

  it('says which AWS setting is missing when the SDK has no region or no credentials', async () => {
    const { sm, provider } = setup();
    sm.on(GetSecretValueCommand)
      .rejectsOnce(new Error('Region is missing'))
      .rejectsOnce(
        Object.assign(new Error('Could not load credentials from any providers'), {
          name: 'CredentialsProviderError',
        }),
      );
    const noRegion = await rejection(provider());
    expect(noRegion.code).toBe('CREDENTIALS_MISSING');
    expect(noRegion.message).toBe(
      'cannot read secret "reporting/v2/client": no AWS region is configured (AWS_REGION). For a local run set REPORTING_CLIENT_ID and REPORTING_CLIENT_SECRET, or configure AWS so the secret can be read',
    );
    expect((await rejection(provider())).message).toContain('no AWS credentials are configured');
  });

  it('reads the secret once and reuses it until the TTL has passed', async () => {
    const { sm, provider, advance } = setup();
    sm.on(GetSecretValueCommand, { SecretId: 'reporting/v2/client' }).resolves({ SecretString: SECRET });
    await Promise.all([provider(), provider(), provider()]);
    advance(5 * 60_000 - 1);
    await provider();
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    advance(1);
    await provider();
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('says the secret is missing and how to fix it', async () => {
    const { sm, provider } = setup();
    sm.on(GetSecretValueCommand).rejects(
      new ResourceNotFoundException({
        message: "Secrets Manager can't find the specified secret.",
        $metadata: {},
      }),
    );
    const err = await rejection(provider());
    expect(err.code).toBe('CREDENTIALS_MISSING');
    expect(err.message).toContain('secret "reporting/v2/client" was not found');
    expect(err.message).toContain('REPORTING_CLIENT_ID');
  });

  it('says a denied read is denied (not missing) and names the permissions', async () => {
    const { sm, provider } = setup();
    sm.on(GetSecretValueCommand).rejects(
      new SecretsManagerServiceException({ name: 'AccessDeniedException', $fault: 'client', $metadata: {} }),
    );
    const err = await rejection(provider());
    expect(err.code).toBe('CREDENTIALS_DENIED');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('secretsmanager:GetSecretValue');
    expect(err.message).toContain('kms:Decrypt');
  });

  it('does not cache a failure', async () => {
    const { sm, provider } = setup();
    sm.on(GetSecretValueCommand)
      .rejectsOnce(
        new SecretsManagerServiceException({ name: 'ThrottlingException', $fault: 'client', $metadata: {} }),
      )
      .resolves({ SecretString: SECRET });
    const err = await rejection(provider());
    expect(err.code).toBe('CREDENTIALS_UNAVAILABLE');
    expect(err.retryable).toBe(true);
    expect(await provider()).toEqual({ clientId: 'client-7', clientSecret: CANARY });
  });

  it('rejects a SecretString that is not JSON without echoing it', async () => {
    const { sm, provider } = setup();
    sm.on(GetSecretValueCommand).resolves({ SecretString: `clientSecret=${CANARY}` });
    const err = await rejection(provider());
    expect(err.code).toBe('CREDENTIALS_INVALID');
    expect(err.message).toContain('is not JSON');
    expect(`${err.message} ${JSON.stringify(err.details)} ${String(err.cause)}`).not.toContain(CANARY);
  });

  it('rejects JSON without the two string fields, naming the fields but not the values', async () => {
    const { sm, provider } = setup();
    sm.on(GetSecretValueCommand).resolves({
      SecretString: JSON.stringify({ client_id: 'x', clientSecret: 42, note: CANARY }),
    });
    const err = await rejection(provider());
    expect(err.code).toBe('CREDENTIALS_INVALID');
    expect(err.message).toContain('clientId, clientSecret');
    expect(`${err.message} ${JSON.stringify(err.details)}`).not.toContain(CANARY);
    expect(err.message).not.toContain('42');
  });

  it('rejects a binary secret', async () => {
    const { sm, provider } = setup();
    sm.on(GetSecretValueCommand).resolves({ SecretBinary: new Uint8Array([1, 2, 3]) });
    expect((await rejection(provider())).message).toContain('has no SecretString');
  });

  it('accepts the secret id alone', () => {
    expect(typeof createCredentialsProvider('reporting/v2/client')).toBe('function');
  });
});
