/**
 * Reads recipient lists from SSM Parameter Store at send time (`recipients: ssm:/path`): a String or
 * StringList parameter of comma-separated addresses. No cache: every run reads the current list, so a
 * changed mailing list takes effect at the next run without a redeploy. One client per process;
 * endpoint, region and credentials from the SDK's chain (`AWS_ENDPOINT_URL_SSM` points it at an
 * emulator). IAM: `ssm:GetParameter` on exactly the parameters the config names.
 */
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import type { ParameterReader } from '#core/email/types';
import { ExporterError } from '#core/errors';

let shared: SSMClient | undefined;
const sharedClient = (): SSMClient => {
  shared ??= new SSMClient({});
  return shared;
};

/** A ParameterReader on SSM; the client is created on first use (most configs never need it). */
export function createSsmParameterReader(client?: SSMClient): ParameterReader {
  return async (name: string): Promise<string> => {
    const ssm = client ?? sharedClient();
    try {
      const out = await ssm.send(new GetParameterCommand({ Name: name }));
      const { Type, Value } = out.Parameter ?? {};
      if (Type === 'SecureString') {
        throw new ExporterError(
          'EMAIL_FAILED',
          `SSM parameter ${name} is a SecureString; store recipient lists as String or StringList`,
        );
      }
      return Value ?? '';
    } catch (err: unknown) {
      if (err instanceof ExporterError) throw err;
      const what = err instanceof Error ? err.name : 'Error';
      const status = (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
      throw new ExporterError(
        'EMAIL_FAILED',
        `could not read the recipients from SSM parameter ${name}: ${what}${status ? ` (HTTP ${status})` : ''}`,
        { cause: err, details: { parameter: name, errorName: what, httpStatus: status ?? null } },
      );
    }
  };
}
