/**
 * Renders the summary emails in headless Debian Chromium with JavaScript ON (an injected script or
 * event handler would run if escaping failed), at a phone's 390 px and a desktop's 1280 px: no
 * horizontal scrolling (`scrollWidth` ≤ the viewport), nothing run, nothing loaded. Hostile data
 * (unbreakable names, huge numbers, a long server error) for both audiences, and every email the
 * demo writes. Screenshots go to test/artifacts/ (gitignored).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo } from '#cli/commands/demo';
import { renderSummary } from '#core/email/summary';
import type { EmailMessage } from '#core/email/types';
import { CHROMIUM, hasChromium, INSTALL_CHROMIUM, launchChromium, renderEmail } from '../../scripts/chromium';
import {
  CSV_KEY,
  config,
  creatorsReport,
  manifest,
  postsReport,
  summaryInput,
  TOP_CREATORS,
} from '../core/email/fixtures';

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const HOSTILE = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2;alert(1)">`;
const WIDTHS = [390, 1280] as const;

let browser: Browser | undefined;

beforeAll(async () => {
  if (hasChromium()) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** Skips outside CI (naming what to install) and fails in CI when Chromium is missing. */
function needBrowser(ctx: { skip: (note?: string) => void }): Browser {
  if (browser) return browser;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: ${INSTALL_CHROMIUM}`);
  ctx.skip(INSTALL_CHROMIUM);
  throw new Error('unreachable');
}

/** A partial run with everything that can push a layout wider or inject markup. */
async function hostileMessages(): Promise<EmailMessage[]> {
  const { schedule } = config();
  const unbreakable = 'W'.repeat(300);
  const previous = manifest(
    [creatorsReport({ totals: { likes: 1_100_000, comments: 0, affiliateLinksRevenue: 11_000 } })],
    { window: { start: '2026-11-09', end: '2026-11-15', timezone: 'Europe/Berlin' } },
  );
  const top = [
    { ...TOP_CREATORS[0], name: `Eve ${HOSTILE}`, platform: unbreakable },
    { ...TOP_CREATORS[1], name: unbreakable, likes: 987_654_321_012_345 },
    { ...TOP_CREATORS[2], name: '["ins_0001","ins_0002","ins_0003"]' },
  ];
  const huge = creatorsReport({
    totals: { likes: 123_456_789_012_345, comments: 890, affiliateLinksRevenue: 98_765_432_109.87 },
    files: creatorsReport().files.map((f) => ({ ...f, key: `${f.key}/${'deep-folder-name/'.repeat(12)}x` })),
  });
  return renderSummary(
    summaryInput(
      {
        schedule: {
          ...schedule,
          title: `Weekly ${unbreakable}`,
          operators: ['ops@example.com'],
        },
        previous,
        top: { creators: top },
        manifest: manifest([
          huge,
          postsReport({
            error: `Server said: ${HOSTILE} ${'x'.repeat(500)} /v2/posts/performance?instanceIds=${'a'.repeat(200)}`,
            errorCode: 'API_FORBIDDEN',
            warnings: [
              {
                code: 'METRIC_ABSENT',
                message: `${unbreakable} was in no row`,
                column: unbreakable,
                count: 1,
              },
            ],
          }),
        ]),
      },
      { [CSV_KEY]: new TextEncoder().encode('creatorId,name\nc-1,Eve\n') },
    ),
  );
}

describe('summary emails in headless Chromium', () => {
  it('hostile data: no sideways scrolling at 390 and 1280 px, no script run, nothing loaded, for both audiences', async (ctx) => {
    const b = needBrowser(ctx);
    const messages = await hostileMessages();
    expect(messages.map((m) => m.audience)).toEqual(['stakeholders', 'operators']);
    for (const m of messages) {
      for (const width of WIDTHS) {
        const shot = join(ARTIFACTS, `email-hostile-${m.audience}-${width}.png`);
        const r = await renderEmail(b, m.html, width, shot);
        expect(r.scrollWidth, `${m.audience} at ${width} px`).toBeLessThanOrEqual(width);
        expect(r.pwned).toBeUndefined();
        expect(r.dialogs).toEqual([]);
        expect(r.requests).toEqual([]);
        expect(r.text).toContain('<script>window.__pwned=1</script>');
        expect(r.text).toContain('ins_0001, ins_0002, ins_0003');
      }
    }
    const [stakeholders, operators] = await Promise.all(messages.map((m) => renderEmail(b, m.html, 390)));
    expect(stakeholders?.text).toContain(
      'could not be updated for 16–22 Nov 2026; the data team has been told.',
    );
    expect(stakeholders?.text).not.toMatch(/API_FORBIDDEN|Server said|s3:\/\/|METRIC_ABSENT/);
    expect(operators?.text).toMatch(/API_FORBIDDEN[\s\S]*Server said/);
    expect(operators?.text).toContain('METRIC_ABSENT');
    expect(operators?.text).toContain(`s3://acme-exports/${CSV_KEY}`);
  });

  it('every email the demo writes fits 390 px and 1280 px without sideways scrolling, at most 3 phone screens (operators 4), in business words', async (ctx) => {
    const b = needBrowser(ctx);
    const dir = await mkdtemp(join(tmpdir(), 'demo-emails-'));
    try {
      await runDemo(dir, new Date('2026-11-23T12:00:00Z'));
      const pages = (await readdir(join(dir, 'outbox'))).filter((f) => f.endsWith('.html')).sort();
      expect(pages).toHaveLength(4);
      for (const page of pages) {
        const html = await readFile(join(dir, 'outbox', page), 'utf8');
        const operators = page.includes('run-detail');
        for (const width of WIDTHS) {
          const png = join(ARTIFACTS, `demo-${page.replace(/\.html$/, '')}-${width}.png`);
          const r = await renderEmail(b, html, width, png);
          expect(r.scrollWidth, `${page} at ${width} px`).toBeLessThanOrEqual(width);
          expect(r.requests).toEqual([]);
          if (width === 390) {
            // an iPhone screen is 844 CSS px tall at 390 px wide
            expect(r.scrollHeight, `${page} at 390 px`).toBeLessThanOrEqual(operators ? 4 * 844 : 3 * 844);
          }
          expect(r.text, page).not.toMatch(/not added up|undefined|NaN|Infinity/);
          if (operators) continue;
          // stakeholders: no API words, no raw ids, no codes where words belong
          expect(r.text, page).not.toMatch(/\binstances?\b|\bAPI\b|API client|\(the API default\)/i);
          expect(r.text, page).not.toMatch(/\b(ins|cmp|cr)_\d+|\bp_\d{8}_\d+|creator_id/);
          expect(r.text, page).not.toMatch(/\b(facebook|tiktok|instagram|youtube|draft|active|paused)\b/);
        }
        const kpis = [...html.matchAll(/data-role="kpi"[^>]*>(.*?)<\/div><\/div>/gs)];
        expect(kpis.length, page).toBe(html.split('data-role="kpi"').length - 1);
        expect(kpis.length, page).toBeGreaterThan(0);
        for (const [, card] of kpis) {
          // every card has a label and a number (or "no data"), never only a sentence
          expect(card, page).toMatch(/font-size:20px;font-weight:700[^>]*>(?:[^<]*\d[^<]*|no data)</);
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
