/**
 * Where the API client's credentials come from (docs/config.md): `REPORTING_CLIENT_ID` and
 * `REPORTING_CLIENT_SECRET` when both are set (local runs), otherwise the Secrets Manager secret
 * `api.credentialsSecret`, whose SecretString is `{"clientId","clientSecret"}`. The secret is read
 * once and cached for `ttlMs` (create the provider at module scope: one cache per container), so a
 * rotated secret is picked up within minutes without a call per token.
 *
 * The endpoint, region and AWS credentials follow the SDK's own conventions
 * (`AWS_ENDPOINT_URL_SECRETS_MANAGER`, default chain): no settings of ours. Errors name the secret id
 * and what is wrong with it, never its content.
 */
import {
  GetSecretValueCommand,
  type GetSecretValueCommandOutput,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import * as z from 'zod/mini';
import type { ClientCredentials } from '#core/api/client';
import { ExporterError } from '#core/errors';

export type { ClientCredentials };

export interface CredentialsProviderOptions {
  /** Secrets Manager id (name or ARN) of `{"clientId","clientSecret"}`. */
  readonly secretId: string;
  /** Default: one client per process, configured from the environment. */
  readonly secretsManager?: SecretsManagerClient;
  /** How long a fetched secret is reused. Default 5 minutes. */
  readonly ttlMs?: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly now?: () => number;
}

export const CREDENTIALS_TTL_MS = 5 * 60_000;

const SecretSchema = z.object({
  clientId: z.string().check(z.minLength(1)),
  clientSecret: z.string().check(z.minLength(1)),
});

let sharedClient: SecretsManagerClient | null = null;
const defaultClient = () => {
  sharedClient ??= new SecretsManagerClient({});
  return sharedClient;
};

/**
 * A function that returns the API client credentials, from the environment override or the
 * (cached) secret. Accepts the secret id alone for the common case.
 */
export function createCredentialsProvider(
  options: string | CredentialsProviderOptions,
): () => Promise<ClientCredentials> {
  const opts: CredentialsProviderOptions = typeof options === 'string' ? { secretId: options } : options;
  const env = opts.env ?? process.env;
  const now = opts.now ?? Date.now;
  const ttlMs = opts.ttlMs ?? CREDENTIALS_TTL_MS;
  let cached: { value: ClientCredentials; at: number } | null = null;
  let inflight: Promise<ClientCredentials> | null = null;

  return async () => {
    const clientId = env.REPORTING_CLIENT_ID;
    const clientSecret = env.REPORTING_CLIENT_SECRET;
    for (const [name, value] of [
      ['REPORTING_CLIENT_ID', clientId],
      ['REPORTING_CLIENT_SECRET', clientSecret],
    ] as const)
      if (value && value.trim() === '') throw onlyWhitespace(name, opts.secretId);
    if (clientId && clientSecret) return { clientId, clientSecret };
    // half of the local override is a mistake to name, not a reason to fall back to the secret
    // silently (which then fails for want of a region, once per report)
    if (clientId || clientSecret)
      throw halfSet(clientId ? 'REPORTING_CLIENT_SECRET' : 'REPORTING_CLIENT_ID', opts.secretId);
    if (cached !== null && now() - cached.at < ttlMs) return cached.value;
    inflight ??= readSecret(opts.secretsManager ?? defaultClient(), opts.secretId)
      .then((value) => {
        cached = { value, at: now() };
        return value;
      })
      .finally(() => {
        inflight = null;
      });
    return inflight;
  };
}

async function readSecret(client: SecretsManagerClient, secretId: string): Promise<ClientCredentials> {
  if (secretId.trim() === '') {
    throw new ExporterError(
      'CREDENTIALS_MISSING',
      'no credentials: set api.credentialsSecret, or REPORTING_CLIENT_ID and REPORTING_CLIENT_SECRET',
    );
  }
  let out: GetSecretValueCommandOutput;
  try {
    out = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  } catch (err: unknown) {
    throw secretsManagerError(secretId, err);
  }
  const expected = 'expected a SecretString of JSON {"clientId": "…", "clientSecret": "…"}';
  if (typeof out.SecretString !== 'string') {
    throw new ExporterError('CREDENTIALS_INVALID', `secret "${secretId}" has no SecretString; ${expected}`, {
      details: { secretId },
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(out.SecretString);
  } catch {
    // no cause: a JSON SyntaxError quotes the text it failed on, i.e. the secret
    throw new ExporterError('CREDENTIALS_INVALID', `secret "${secretId}" is not JSON; ${expected}`, {
      details: { secretId },
    });
  }
  const parsed = SecretSchema.safeParse(json);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '(root)')))].join(', ');
    throw new ExporterError(
      'CREDENTIALS_INVALID',
      `secret "${secretId}" lacks non-empty string field(s) ${fields}; ${expected}`,
      { details: { secretId, fields } },
    );
  }
  return parsed.data;
}

function halfSet(missing: string, secretId: string): ExporterError {
  const other = missing === 'REPORTING_CLIENT_ID' ? 'REPORTING_CLIENT_SECRET' : 'REPORTING_CLIENT_ID';
  return new ExporterError(
    'CREDENTIALS_MISSING',
    `${missing} is not set (${other} is): set both for a local run, or neither to read the API credentials from the Secrets Manager secret "${secretId}"`,
    { details: { missing, secretId } },
  );
}

/** A variable set to blanks is a mistake to name (a usage error, like a half-set pair), not a run's failure. */
function onlyWhitespace(name: string, secretId: string): ExporterError {
  return new ExporterError(
    'CREDENTIALS_MISSING',
    `${name} is set but holds only whitespace: set it to the API client's ${name === 'REPORTING_CLIENT_ID' ? 'id' : 'secret'}, or unset REPORTING_CLIENT_ID and REPORTING_CLIENT_SECRET to read the credentials from the Secrets Manager secret "${secretId}"`,
    { details: { variable: name, secretId } },
  );
}

/** The SDK found no region or no AWS credentials: nothing was asked, so say what to set. */
function notConfigured(secretId: string, name: string, said: string): ExporterError | null {
  // an unset AWS_REGION says "Region is missing"; one set to "" is "not a valid hostname component"
  const what = /region is missing|region="" is not/i.test(said)
    ? 'no AWS region is configured (AWS_REGION)'
    : name === 'CredentialsProviderError' || /could not load credentials/i.test(said)
      ? 'no AWS credentials are configured'
      : null;
  if (what === null) return null;
  return new ExporterError(
    'CREDENTIALS_MISSING',
    `cannot read secret "${secretId}": ${what}. For a local run set REPORTING_CLIENT_ID and REPORTING_CLIENT_SECRET, or configure AWS so the secret can be read`,
    { details: { secretId, awsError: name } },
  );
}

/** An SDK failure → a message that says what to do; AWS error messages never contain secret values. */
function secretsManagerError(secretId: string, err: unknown): ExporterError {
  const name = err instanceof Error ? err.name : 'Error';
  const said = err instanceof Error ? err.message : String(err);
  const details = { secretId, awsError: name };
  const local = notConfigured(secretId, name, said);
  if (local) return local;
  if (name === 'ResourceNotFoundException') {
    return new ExporterError(
      'CREDENTIALS_MISSING',
      `secret "${secretId}" was not found in Secrets Manager: create it with a SecretString {"clientId","clientSecret"}, or set REPORTING_CLIENT_ID and REPORTING_CLIENT_SECRET for a local run`,
      { details },
    );
  }
  if (name === 'AccessDeniedException' || name === 'DecryptionFailure') {
    return new ExporterError(
      'CREDENTIALS_DENIED',
      `not allowed to read secret "${secretId}" (secretsmanager:GetSecretValue, and kms:Decrypt when the secret has its own KMS key): ${said}`,
      { details },
    );
  }
  const transient = /Throttl|InternalServiceError|TimeoutError|ECONN|EAI_AGAIN|NetworkingError/.test(
    `${name} ${said}`,
  );
  return new ExporterError(
    'CREDENTIALS_UNAVAILABLE',
    `could not read secret "${secretId}": ${name}: ${said}`,
    {
      retryable: transient,
      details,
    },
  );
}
