/**
 * Sends the real summary through SES v2 (raw MIME) into aws-ses-v2-local on loopback, started here,
 * and reads the message back from the emulator's store: subject, recipients, both parts, attachment.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSesMailer } from '#adapters/ses-mailer';
import { deliverSummary } from '#core/email/summary';
import type { Mailer } from '#core/email/types';
import { guardCsv } from '#core/export/csv-guard';
import { CSV_KEY, config, summaryInput } from '../core/email/fixtures';
import { freePort } from '../support/ports';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(ROOT, 'node_modules', 'aws-ses-v2-local', 'dist', 'cli.js');
const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };

interface StoredEmail {
  messageId: string;
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { html?: string; text?: string };
  attachments: { filename: string; contentType: string; content: string }[];
}

let server: ChildProcess | undefined;
let endpoint = '';

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`aws-ses-v2-local exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health-check`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('aws-ses-v2-local did not become healthy in 10 s');
}

async function stored(messageId: string): Promise<StoredEmail> {
  const store = (await (await fetch(`${endpoint}/store`)).json()) as { emails: StoredEmail[] };
  const email = store.emails.find((e) => e.messageId === messageId);
  if (!email) throw new Error(`message ${messageId} not in the emulator's store`);
  return email;
}

/** Wraps a mailer to learn the message ids deliverSummary does not return. */
function recordingIds(mailer: Mailer): Mailer & { ids: string[] } {
  const ids: string[] = [];
  return {
    ids,
    send: async (m) => {
      const id = await mailer.send(m);
      ids.push(id);
      return id;
    },
  };
}

beforeAll(async () => {
  const port = await freePort();
  endpoint = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [CLI, '--host', '127.0.0.1', '--port', String(port)], { stdio: 'ignore' });
  await waitHealthy(endpoint, server);
});

afterAll(() => {
  server?.kill();
});

describe('summary email through aws-ses-v2-local', () => {
  it('delivers subject, recipients, text and HTML parts and the guarded CSV copy byte for byte', async () => {
    // Prepare
    const csv = new TextEncoder().encode(
      'creatorId,name,likes\nc-1,"Ada, <b>L</b>",500000\nc-2,Grace 🚀,400000\nc-3,=HYPERLINK(""x""),-5\n',
    );
    const client = new SESv2Client({ endpoint, region: 'us-east-1', credentials: CREDENTIALS });
    const mailer = recordingIds(createSesMailer({ client }));

    // Act
    const result = await deliverSummary(summaryInput({}, { [CSV_KEY]: csv }), mailer);

    // Assess
    expect(result).toEqual({ sent: 1 });
    const email = await stored(mailer.ids[0] ?? '');
    expect(email.subject).toBe('PARTIAL: Weekly campaign performance: 2026-11-16 – 2026-11-22');
    expect(email.from).toContain('reports@example.com');
    expect(email.destination.to.join(',')).toContain('brand-team@example.com');
    expect(email.destination.to.join(',')).toContain('cmo@example.com');
    expect(email.body.text).toContain('Likes: 1,234,567  no earlier run to compare with');
    expect(email.body.text).toContain('The Post performance report could not be updated for 16–22 Nov 2026');
    expect(email.body.text).not.toContain('403');
    expect(email.body.html).toContain('data-role="kpis"');
    expect(email.body.html).toContain('Ada &lt;b&gt;Lovelace&lt;/b&gt;');
    expect(email.attachments).toHaveLength(1);
    expect(email.attachments[0]?.filename).toBe('creators-2026-11-22-part-00000.csv');
    expect(email.attachments[0]?.contentType).toBe('text/csv');
    // people open the attachment in a spreadsheet: it is the export's guarded copy (formulas neutralised)
    const attached = Buffer.from(email.attachments[0]?.content ?? '', 'base64');
    expect(attached.equals(Buffer.from(guardCsv(csv)))).toBe(true);
    expect(attached.toString('utf8')).toContain(`'=HYPERLINK`);
    expect(attached.toString('utf8')).toContain(',-5\r\n');
  });

  it('splits 60 recipients into two sends of 50 and 10', async () => {
    const { schedule } = config();
    const recipients = Array.from({ length: 60 }, (_, i) => `user${i}@example.com`);
    const client = new SESv2Client({ endpoint, region: 'us-east-1', credentials: CREDENTIALS });
    const mailer = recordingIds(createSesMailer({ client }));
    await deliverSummary(summaryInput({ schedule: { ...schedule, recipients } }), mailer);
    const sent = await Promise.all(mailer.ids.map(stored));
    // mailparser (inside the emulator) reports the To header as one comma-separated string.
    const addresses = sent.map((e) =>
      e.destination.to
        .join(',')
        .split(',')
        .map((a) => a.trim()),
    );
    expect(addresses.map((a) => a.length)).toEqual([50, 10]);
    expect(addresses.flat()).toEqual(recipients);
  });

  it('uses AWS_ENDPOINT_URL_SESV2 for the process-wide client when no client is given', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_SESV2: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
    });
    try {
      const id = await createSesMailer().send({
        from: 'reports@example.com',
        to: ['env@example.com'],
        subject: 'env endpoint',
        html: '<p>x</p>',
        text: 'x',
        attachments: [],
      });
      expect((await stored(id)).destination.to).toEqual(['env@example.com']);
    } finally {
      process.env = saved;
    }
  });
});
