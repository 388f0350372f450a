import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSesMailer } from '#adapters/ses-mailer';
import type { EmailMessage } from '#core/email/types';
import { isExporterError } from '#core/errors';

const client = new SESv2Client({
  region: 'eu-west-1',
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'SECRETEXAMPLE' },
});
const ses = mockClient(client);

const message: EmailMessage = {
  from: 'Reports <reports@example.com>',
  to: ['a@example.com', 'b@example.com'],
  subject: 'Weekly: 2026-11-16 – 2026-11-22',
  html: '<p>hi</p>',
  text: 'hi',
  attachments: [
    {
      filename: 'r.csv',
      contentType: 'text/csv; charset=utf-8',
      content: new TextEncoder().encode('a,b\n1,2\n'),
    },
  ],
};

function sesError(name: string, status: number, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`${name} happened`), {
    name,
    $metadata: { httpStatusCode: status },
    ...extra,
  });
}

beforeEach(() => ses.reset());

describe('createSesMailer', () => {
  it('sends raw MIME with the recipients as ToAddresses and returns the MessageId', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const id = await createSesMailer({ client }).send(message);
    expect(id).toBe('m-1');
    const input = ses.commandCalls(SendEmailCommand)[0]?.args[0].input;
    expect(input?.Destination).toEqual({ ToAddresses: ['a@example.com', 'b@example.com'] });
    expect(input?.FromEmailAddress).toBe('reports@example.com');
    expect(input?.Content?.Simple).toBeUndefined();
    const raw = Buffer.from(input?.Content?.Raw?.Data ?? new Uint8Array()).toString('utf8');
    expect(raw).toMatch(/^From: Reports <reports@example.com>\r\n/m);
    expect(raw).toMatch(/^To: a@example.com, b@example.com\r\n/m);
    expect(raw).toContain('Content-Type: text/csv; charset=utf-8; name=r.csv');
    expect(raw).toContain(Buffer.from('a,b\n1,2\n').toString('base64'));
  });

  it('retries throttling with backoff, then succeeds', async () => {
    ses
      .on(SendEmailCommand)
      .rejectsOnce(sesError('TooManyRequestsException', 429))
      .rejectsOnce(sesError('Whatever', 400, { $retryable: { throttling: true } }))
      .resolves({ MessageId: 'm-2' });
    const waits: number[] = [];
    const mailer = createSesMailer({ client, baseDelayMs: 100, sleep: async (ms) => void waits.push(ms) });
    await expect(mailer.send(message)).resolves.toBe('m-2');
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeLessThanOrEqual(200);
    expect(waits[1]).toBeLessThanOrEqual(400);
  });

  it('gives up after maxAttempts throttled sends with a retryable EMAIL_FAILED', async () => {
    ses.on(SendEmailCommand).rejects(sesError('TooManyRequestsException', 429));
    const mailer = createSesMailer({ client, maxAttempts: 3, sleep: async () => {} });
    const err = await mailer.send(message).catch((e: unknown) => e);
    expect(isExporterError(err, 'EMAIL_FAILED')).toBe(true);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(3);
    expect(isExporterError(err) && err.retryable).toBe(true);
  });

  it('does not retry a rejection and raises a secret-free EMAIL_FAILED', async () => {
    ses.on(SendEmailCommand).rejects(sesError('MessageRejected', 400));
    const err = await createSesMailer({ client, sleep: async () => {} })
      .send(message)
      .catch((e: unknown) => e);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    expect(isExporterError(err, 'EMAIL_FAILED')).toBe(true);
    const text = `${(err as Error).message} ${JSON.stringify((err as { details?: unknown }).details)}`;
    expect(text).toContain('MessageRejected (HTTP 400)');
    expect(text).not.toMatch(/AKIDEXAMPLE|SECRETEXAMPLE/);
    expect(isExporterError(err) && err.retryable).toBe(false);
  });
});
