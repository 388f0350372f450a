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
    if (!cfg.email) throw new Error('fixture has no email section');
    const badFrom = summaryInput({
      config: {
        ...cfg,
        email: { ...cfg.email, from: 'R <r@example.com>\nBcc: x@evil.test', attachCsvUpToMiB: 1 },
      },
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
    const { schedule } = config();
    const messages = await renderSummary(
      summaryInput({
        schedule: { ...schedule, operators: ['ops@example.com'] },
        top: { creators: top },
        manifest: manifest([creatorsReport(), postsReport({ error: `server: ${HOSTILE}` })]),
      }),
    );
    // The operators' email carries the server's error text; both carry the hostile name.
    const message = { html: messages.map((m) => m.html).join('\n') };
    expect(messages.map((m) => m.audience)).toEqual(['stakeholders', 'operators']);
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

  it('shows a non-additive KPI as its average per row, labelled so, and never as a sum, in both parts', async () => {
    const means = { engagementRate: { mean: 0.0622, rows: 12_345 } };
    const message = await render({ manifest: manifest([creatorsReport({ means })]) });
    expect(message.text).toContain(
      'Engagement rate · average per creator: 6.22%  average of 12,345 creators',
    );
    expect(message.html).toContain('Engagement rate · average per creator');
    expect(message.html).toContain('6.22%');
    const sumOfRates = '12.44%'; // 7.34% + 5.1%: a meaningless number that must not appear
    expect(message.text).not.toContain(sumOfRates);
    expect(message.html).not.toContain(sumOfRates);
    expect(message.text).toMatch(/Engagement rate 7\.34%/);
  });

  it('shows a manifest of an older version (no averages) without a number, saying why', async () => {
    const message = await render();
    expect(message.text).toContain('Engagement rate: an average or rate, not added up');
  });

  it('says "no data" for a counter no row had, and "No creators in this period" for an empty report', async () => {
    const noLikes = await render({ manifest: manifest([creatorsReport({ totals: { comments: 890 } })]) });
    expect(noLikes.text).toContain('Likes: no data  no creator had a value');
    const empty = await render({ manifest: manifest([creatorsReport({ rowCount: 0, totals: {} })]) });
    expect(empty.text).toContain('No creators in this period.');
    expect(empty.html).toContain('No creators in this period.');
    expect(`${empty.text}${empty.html}`).not.toContain('see each');
  });

  it('abbreviates a total beyond 2^63 (exact in the files) and keeps its change readable', async () => {
    const huge = await render({
      manifest: manifest([creatorsReport({ totals: { likes: '12345678901234567890', comments: 890 } })]),
    });
    expect(huge.text).toContain('Likes: 1.2 × 10¹⁹');
    expect(huge.html).not.toContain('12,345,678,901,234,567,890');
  });

  it('shows totals with deltas naming the compared window, new for a previous zero, and no NaN/Infinity', async () => {
    const previous = manifest(
      [creatorsReport({ totals: { likes: 1_100_000, comments: 0, affiliateLinksRevenue: 11_000 } })],
      { window: { start: '2026-11-09', end: '2026-11-15', timezone: 'Europe/Berlin' } },
    );
    const { text, html } = await render({ previous });
    expect(text).toContain('Likes: 1,234,567  ▲ +134,567 (+12.2%) vs 9–15 Nov');
    expect(text).toContain('Comments: 890  ▲ +890 (new; was 0) vs 9–15 Nov');
    expect(text).toContain('Affiliate links revenue: €10,432.50  ▼ -€567.50 (-5.2%) vs 9–15 Nov');
    expect(html).toContain('compared with 9–15 Nov');
    expect(`${text}${html}`).not.toMatch(/NaN|Infinity/);
  });

  it('says there is no earlier run to compare with on the first run', async () => {
    const { text, html } = await render({ previous: null });
    expect(text).toContain('Likes: 1,234,567  no earlier run to compare with');
    expect(html).toContain('no earlier run to compare with');
  });

  it('tells stakeholders in a plain sentence that a report failed, without its reason', async () => {
    const { text, html, subject } = await render();
    expect(subject).toBe('PARTIAL: Weekly campaign performance: 2026-11-16 – 2026-11-22');
    expect(text).toContain(
      'The Post performance report could not be updated for 16–22 Nov 2026; please let the data team know.',
    );
    expect(`${text}${html}`).not.toContain('403');
    expect(text).toContain('  ✓ Creator performance: 12,345 creators\n  ✗ Post performance: not updated');
  });

  it('caps the top list at topN rows and truncates long names', async () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({
      ...TOP_CREATORS[0],
      creatorId: `c-${i}`,
      name: `${'N'.repeat(100)}${i}`,
    }));
    const { text, html } = await render({ top: { creators: rows } });
    expect(text).toMatch(/Top 3 (of [\d,]+ )?creators by likes:/);
    expect(text).not.toContain('  4. ');
    expect(html.match(/<tr><td valign="top"[^>]*>\d+<\/td>/g)).toHaveLength(3);
    expect(text).not.toContain('N'.repeat(41));
    expect(text).toContain(`${'N'.repeat(39)}…`);
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
    expect(message.html).toContain('every row, as 1 CSV file');
  });

  it('attaches nothing and says why when the CSVs exceed attachCsvUpToMiB', async () => {
    const big = creatorsReport({
      files: creatorsReport().files.map((f) => (f.format === 'csv' ? { ...f, bytes: 3 * 1024 * 1024 } : f)),
    });
    const message = await render({ manifest: manifest([big]) }, { [CSV_KEY]: new Uint8Array(10) });
    expect(message.attachments).toEqual([]);
    expect(message.text).toContain('larger than the 1 MiB attachment limit, so they are not attached');
    expect(message.html).toContain('larger than the 1 MiB attachment limit');
  });
});
