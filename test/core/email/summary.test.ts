import { describe, expect, it } from 'vitest';
import { composeMime } from '#core/email/mime';
import { deliverSummary, renderSummary } from '#core/email/summary';
import type { EmailMessage } from '#core/email/types';
import { isExporterError } from '#core/errors';
import { recordingMailer } from '../../support/mailer';
import {
  CSV_KEY,
  config,
  creatorsReport,
  manifest,
  postsReport,
  summaryInput,
  TOP_CREATORS,
} from './fixtures';

const HOSTILE = `<script>window.__pwned=1</script><img src=x onerror="alert('x')"> &amp; "q" 🚀`;

async function render(
  overrides: Parameters<typeof summaryInput>[0] = {},
  objects = {},
): Promise<EmailMessage> {
  const [message] = await renderSummary(summaryInput(overrides, objects));
  if (!message) throw new Error('nothing rendered');
  return message;
}

describe('deliverSummary: recipients', () => {
  it('sends nothing and reads nothing when the schedule has no recipients', async () => {
    const { schedule } = config();
    let reads = 0;
    const mailer = recordingMailer();
    const input = summaryInput({
      schedule: { ...schedule, recipients: [] },
      readObject: async () => {
        reads++;
        return null;
      },
    });
    await expect(deliverSummary(input, mailer)).resolves.toEqual({ sent: 0 });
    expect(mailer.sent).toEqual([]);
    expect(reads).toBe(0);
  });

  it('splits 120 recipients into messages of at most 50, same content each', async () => {
    const { schedule } = config();
    const recipients = Array.from({ length: 120 }, (_, i) => `user${i}@example.com`);
    const mailer = recordingMailer();
    const result = await deliverSummary(summaryInput({ schedule: { ...schedule, recipients } }), mailer);
    expect(result).toEqual({ sent: 3 });
    expect(mailer.sent.map((m) => m.to.length)).toEqual([50, 50, 20]);
    expect(mailer.sent.flatMap((m) => m.to)).toEqual(recipients);
    expect(new Set(mailer.sent.map((m) => m.html)).size).toBe(1);
  });

  it('sends exactly one message for exactly 50 recipients and drops duplicates', async () => {
    const { schedule } = config();
    const recipients = Array.from({ length: 50 }, (_, i) => `user${i}@example.com`);
    const mailer = recordingMailer();
    await deliverSummary(
      summaryInput({ schedule: { ...schedule, recipients: [...recipients, 'USER0@example.com'] } }),
      mailer,
    );
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]?.to).toHaveLength(50);
  });

  it('refuses a recipient or sender with a line break (header injection) with EMAIL_FAILED', async () => {
    const { config: cfg, schedule } = config();
    const badTo = summaryInput({
      schedule: { ...schedule, recipients: ['a@example.com\r\nBcc: x@evil.test'] },
    });
    await expect(deliverSummary(badTo, recordingMailer())).rejects.toSatisfy((e) =>
      isExporterError(e, 'EMAIL_FAILED'),
    );
    const badFrom = summaryInput({
      config: { ...cfg, email: { from: 'R <r@example.com>\nBcc: x@evil.test', attachCsvUpToMiB: 1 } },
    });
    await expect(deliverSummary(badFrom, recordingMailer())).rejects.toSatisfy((e) =>
      isExporterError(e, 'EMAIL_FAILED'),
    );
  });
});

describe('deliverSummary: header injection', () => {
  it('keeps a hostile description inside the Subject header of the raw MIME', async () => {
    const { schedule } = config();
    const message = await render({
      schedule: { ...schedule, description: 'Weekly\r\nBcc: victim@evil.test\r\n\r\n<b>body</b>' },
    });
    expect(message.subject).not.toMatch(/[\r\n]/);
    const raw = (await composeMime(message)).toString('utf8');
    const headers = raw.slice(0, raw.indexOf('\r\n\r\n')).split('\r\n');
    expect(headers.filter((h) => /^bcc:/i.test(h))).toEqual([]);
    expect(headers.every((h) => /^[A-Za-z-]+: /.test(h) || /^[ \t]/.test(h))).toBe(true);
  });
});

describe('deliverSummary: content', () => {
  it('escapes hostile names and server error text in the HTML', async () => {
    const top = [{ ...TOP_CREATORS[0], name: HOSTILE }];
    const message = await render({
      top: { creators: top },
      manifest: manifest([creatorsReport(), postsReport({ error: `server: ${HOSTILE}` })]),
    });
    expect(message.html).not.toMatch(/<script|<img|onerror="/i);
    expect(message.html).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(message.html).toContain('&amp;amp;');
    expect(message.html).toContain('&quot;q&quot;');
    expect(message.html).toContain('🚀');
  });

  it('contains no scripts, forms, external CSS or remote images at all', async () => {
    const { html } = await render();
    expect(html).not.toMatch(/<script|<form|<link|<img|<iframe|<style|src=|url\(|https?:\/\//i);
  });

  it('keeps a name with newlines on one line of the text part', async () => {
    const top = [{ ...TOP_CREATORS[0], name: 'Evil\nFAILED: fake line\r\n== fake report' }];
    const { text } = await render({ top: { creators: top } });
    expect(text.split('\n').some((l) => l.startsWith('FAILED: fake') || l.startsWith('== fake'))).toBe(false);
    expect(text).toContain('Evil FAILED: fake line == fake report');
  });

  it('shows a non-additive KPI per row and never as a sum, in both parts', async () => {
    const message = await render();
    expect(message.text).toContain('engagementRate: per row — see the table');
    expect(message.html).toContain('per row — see the table');
    const sumOfRates = '0.12'; // 0.0734 + 0.051: a meaningless number that must not appear
    expect(message.text).not.toContain(sumOfRates);
    expect(message.html).not.toContain(sumOfRates);
    expect(message.text).toMatch(/engagementRate=0\.07/);
  });

  it('shows totals with deltas against the previous run, new for a previous zero, and no NaN/Infinity', async () => {
    const previous = manifest([
      creatorsReport({ totals: { likes: 1_100_000, comments: 0, affiliateLinksRevenue: 11_000 } }),
    ]);
    const { text, html } = await render({ previous });
    expect(text).toContain('likes: 1,234,567  ▲ +134,567 (+12.2%)');
    expect(text).toContain('comments: 890  ▲ +890 (new; was 0)');
    expect(text).toContain('affiliateLinksRevenue: 10,432.50  ▼ -567.50 (-5.2%)');
    expect(`${text}${html}`).not.toMatch(/NaN|Infinity/);
  });

  it('says "no previous run" for the first run', async () => {
    const { text, html } = await render({ previous: null });
    expect(text).toContain('likes: 1,234,567  no previous run');
    expect(html).toContain('no previous run');
  });

  it('lists the failed report with its reason in plain words', async () => {
    const { text, html, subject } = await render();
    expect(subject).toBe('PARTIAL: Weekly campaign performance: 2026-11-16 – 2026-11-22');
    expect(text).toContain(
      "== posts (posts/performance) — FAILED\nReason: The API answered 403 on posts/performance: instance in-9 is outside this client's set",
    );
    expect(html).toContain('instance in-9 is outside this client&#39;s set');
    expect(text).toContain('  ✓ creators: 12,345 rows\n  ✗ posts: FAILED');
  });

  it('caps the top table at topN rows and truncates long cells', async () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({
      ...TOP_CREATORS[0],
      creatorId: `c-${i}`,
      name: `${'N'.repeat(100)}${i}`,
    }));
    const { text, html } = await render({ top: { creators: rows } });
    expect(text).toContain('Top 3 by likes:');
    expect(text).not.toContain('  4. ');
    expect(html.match(/<tr style="background/g)).toHaveLength(3);
    expect(text).not.toContain('N'.repeat(41));
    expect(text).toContain(`${'N'.repeat(39)}…`);
  });

  it('states row count, pages and where the files are', async () => {
    const { text, html } = await render();
    expect(text).toContain('12,345 rows from 25 pages');
    expect(text).toContain(`CSV s3://acme-exports/${CSV_KEY} (117.2 KiB, 12,345 rows)`);
    expect(html).toContain(`s3://acme-exports/${CSV_KEY}`);
  });

  it('attaches the CSV when it fits, as a copy guarded for spreadsheets, and says so in both parts', async () => {
    const csv = new TextEncoder().encode('creator_id,=name\r\nc-1,@Ada\r\n');
    const message = await render({}, { [CSV_KEY]: csv });
    expect(message.attachments).toEqual([
      {
        filename: 'creators-2026-11-22-part-00000.csv',
        contentType: 'text/csv; charset=utf-8',
        content: new TextEncoder().encode("creator_id,'=name\r\nc-1,'@Ada\r\n"),
      },
    ]);
    expect(message.text).toContain('Attached: creators-2026-11-22-part-00000.csv');
    expect(message.html).toContain('Attached CSV:');
  });

  it('attaches nothing and says why when the CSVs exceed attachCsvUpToMiB', async () => {
    const big = creatorsReport({
      files: creatorsReport().files.map((f) => (f.format === 'csv' ? { ...f, bytes: 3 * 1024 * 1024 } : f)),
    });
    const message = await render({ manifest: manifest([big]) }, { [CSV_KEY]: new Uint8Array(10) });
    expect(message.attachments).toEqual([]);
    expect(message.text).toContain('larger than the 1 MiB attachment limit (email.attachCsvUpToMiB)');
    expect(message.html).toContain('larger than the 1 MiB attachment limit');
  });
});
