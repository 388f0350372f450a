/**
 * Recipient lists in SSM Parameter Store, against moto_server over HTTP, reached the way the product
 * reaches it: the SDK's own AWS_ENDPOINT_URL_SSM. A changed parameter changes the next email's
 * recipients (read at send time, no redeploy); literal lists keep working beside it.
 */
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSsmParameterReader } from '#adapters/ssm-parameters';
import { deliverSummary } from '#core/email/summary';
import { isExporterError } from '#core/errors';
import { config, summaryInput } from '../core/email/fixtures';
import { recordingMailer } from '../support/mailer';
import { hasMoto, type LocalServer, needMoto, startMoto } from '../support/servers';

const ENV = { AWS_REGION: 'eu-central-1', AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing' };
const saved: Record<string, string | undefined> = {};
let moto: LocalServer | undefined;
let admin: SSMClient;

const put = (Name: string, Value: string, Type: 'String' | 'StringList' | 'SecureString') =>
  admin.send(new PutParameterCommand({ Name, Value, Type, Overwrite: true }));

beforeAll(async () => {
  if (!hasMoto) return;
  moto = await startMoto();
  for (const [k, v] of Object.entries({ ...ENV, AWS_ENDPOINT_URL_SSM: moto.endpoint })) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  admin = new SSMClient({ endpoint: moto.endpoint, region: ENV.AWS_REGION });
  await put('/report-exporter/weekly/recipients', 'brand@example.com,cmo@example.com', 'StringList');
  await put('/report-exporter/operators', 'ops@example.com', 'String');
  await put('/report-exporter/secret-list', 'x@example.com', 'SecureString');
}, 30_000);

afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await moto?.stop();
});

describe('recipient lists from SSM (moto_server)', () => {
  it('sends to the addresses of a StringList and a String parameter beside a literal address, read at send time', async (ctx) => {
    needMoto(ctx);
    const { schedule } = config();
    const input = summaryInput({
      schedule: {
        ...schedule,
        recipients: ['ssm:/report-exporter/weekly/recipients', 'literal@example.com'],
        operators: ['ssm:/report-exporter/operators'],
      },
      readParameter: createSsmParameterReader(),
    });
    const first = recordingMailer();
    await deliverSummary(input, first);
    expect(first.sent.map((m) => [m.audience, m.to])).toEqual([
      ['stakeholders', ['brand@example.com', 'cmo@example.com', 'literal@example.com']],
      ['operators', ['ops@example.com']],
    ]);

    await put('/report-exporter/weekly/recipients', 'new-lead@example.com', 'StringList');
    const second = recordingMailer();
    await deliverSummary(input, second);
    expect(second.sent[0]?.to).toEqual(['new-lead@example.com', 'literal@example.com']);
  });

  it('fails with EMAIL_FAILED naming the parameter when it does not exist, or is a SecureString', async (ctx) => {
    needMoto(ctx);
    const read = createSsmParameterReader();
    const missing = await read('/report-exporter/absent').catch((e: unknown) => e);
    expect(isExporterError(missing, 'EMAIL_FAILED')).toBe(true);
    expect(String(missing)).toMatch(/\/report-exporter\/absent: ParameterNotFound/);
    const secure = await read('/report-exporter/secret-list').catch((e: unknown) => e);
    expect(isExporterError(secure, 'EMAIL_FAILED')).toBe(true);
    expect(String(secure)).toContain('SecureString');
    expect(String(secure)).not.toContain('x@example.com');
  });
});
