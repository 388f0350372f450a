/**
 * The CLI's adapters loaded on demand (functions/cli/on-demand.ts): the credentials wrapper answers as the
 * provider does — the complete env override as it is, half of it named as an error, never a silent
 * fall back to the secret.
 */
import { describe, expect, it } from 'vitest';
import { credentialsProvider } from '#cli/on-demand';

describe('credentialsProvider (loaded when the secret is needed)', () => {
  it('answers the complete env override as given', async () => {
    const creds = credentialsProvider('unused/secret', {
      REPORTING_CLIENT_ID: 'id-1',
      REPORTING_CLIENT_SECRET: 's3cr3t',
    });
    await expect(creds()).resolves.toEqual({ clientId: 'id-1', clientSecret: 's3cr3t' });
  });

  it('names the missing half of the override, as the provider does', async () => {
    const creds = credentialsProvider('unused/secret', { REPORTING_CLIENT_ID: 'id-1' });
    await expect(creds()).rejects.toThrow(/REPORTING_CLIENT_SECRET/);
  });

  it('names a variable of blanks, as the provider does', async () => {
    const creds = credentialsProvider('unused/secret', {
      REPORTING_CLIENT_ID: 'id-1',
      REPORTING_CLIENT_SECRET: ' \r\n',
    });
    await expect(creds()).rejects.toThrow(/^REPORTING_CLIENT_SECRET is set but holds only whitespace/);
  });
});
