/**
 * The CLI's adapters that only some runs need, loaded when a command first needs them: the S3 sink
 * (`--bucket`), SES (`--send-email`), SSM parameters (emails), Secrets Manager (credentials without
 * the env override) and the outbox mailer (`--email-dir`, demo; it brings nodemailer's MIME composer).
 * A run into a folder with the env override loads none of them — the AWS SDK alone is about a fifth
 * of the CLI's start: ~0.1 s of CPU and ~20 MB of memory (docs/performance.md, "Start").
 */
import type { ClientCredentials } from '#adapters/credentials';
import type { Mailer, ParameterReader } from '#core/email/types';
import type { Sink } from '#core/sink';

export async function s3Sink(bucket: string): Promise<Sink> {
  const { createS3Sink } = await import('#adapters/s3-sink');
  return createS3Sink(bucket);
}

export async function outboxMailer(dir: string): Promise<Mailer> {
  const { createOutboxMailer } = await import('#adapters/outbox-mailer');
  return createOutboxMailer(dir);
}

export async function sesMailer(): Promise<Mailer> {
  const { createSesMailer } = await import('#adapters/ses-mailer');
  return createSesMailer();
}

/** An SSM parameter reader whose SDK client is loaded on the first read. */
export function ssmParameterReader(): ParameterReader {
  let reader: Promise<ParameterReader> | undefined;
  return async (name) => {
    reader ??= import('#adapters/ssm-parameters').then((m) => m.createSsmParameterReader());
    return (await reader)(name);
  };
}

/**
 * `createCredentialsProvider(secretId)`, loaded when the secret is needed: the complete env override
 * (`REPORTING_CLIENT_ID` and `REPORTING_CLIENT_SECRET`, the provider's first rule) answers without
 * loading it; anything else — the secret, or half of the override or a variable of blanks, which the
 * provider names as an error — goes to the one provider, made once (with its cache of the secret).
 */
export function credentialsProvider(
  secretId: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): () => Promise<ClientCredentials> {
  let provider: Promise<() => Promise<ClientCredentials>> | undefined;
  return async () => {
    const clientId = env.REPORTING_CLIENT_ID;
    const clientSecret = env.REPORTING_CLIENT_SECRET;
    // blanks go to the provider too, which names the variable
    if (clientId?.trim() && clientSecret?.trim()) return { clientId, clientSecret };
    provider ??= import('#adapters/credentials').then((m) => m.createCredentialsProvider({ secretId, env }));
    return (await provider)();
  };
}
