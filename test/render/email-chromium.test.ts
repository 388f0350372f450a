/**
 * Renders the summary HTML in headless Debian Chromium with JavaScript ON, so an injected script or
 * event handler would run if escaping failed. Saves a screenshot to test/artifacts/email.png.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSummary } from '#core/email/summary';
import {
  CSV_KEY,
  creatorsReport,
  manifest,
  postsReport,
  summaryInput,
  TOP_CREATORS,
} from '../core/email/fixtures';

/** Debian's chromium; overridable only to check the skip/fail path. */
const CHROMIUM = process.env.EMAIL_TEST_CHROMIUM ?? '/usr/bin/chromium';
const INSTALL = 'install Debian chromium (apt-get install chromium)';
const ARTIFACT = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'email.png');
const HOSTILE = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2;alert(1)">`;

let browser: Browser | undefined;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
});

/** The stakeholder's view of a partial run, with a previous run for deltas and a hostile creator name. */
async function hostileSummaryHtml(): Promise<string> {
  const previous = manifest([
    creatorsReport({ totals: { likes: 1_100_000, comments: 0, affiliateLinksRevenue: 11_000 } }),
    postsReport({ status: 'succeeded', error: null }),
  ]);
  const top = [{ ...TOP_CREATORS[0], name: `Eve ${HOSTILE}` }, ...TOP_CREATORS.slice(1)];
  const input = summaryInput(
    {
      previous,
      top: { creators: top },
      manifest: manifest([creatorsReport(), postsReport({ error: `Server said: ${HOSTILE}` })]),
    },
    { [CSV_KEY]: new TextEncoder().encode('creatorId,name\nc-1,Eve\n') },
  );
  const [message] = await renderSummary(input);
  if (!message) throw new Error('no message rendered');
  return message.html;
}

describe('summary email in headless Chromium', () => {
  it('shows the KPI table, runs no injected script, loads nothing remote, and saves a screenshot', async (ctx) => {
    if (!browser) {
      if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: ${INSTALL}`);
      return ctx.skip(INSTALL);
    }
    // Prepare
    const html = await hostileSummaryHtml();
    const context = await browser.newContext({
      javaScriptEnabled: true,
      viewport: { width: 720, height: 900 },
    });
    const page = await context.newPage();
    const requests: string[] = [];
    const dialogs: string[] = [];
    await page.route('**/*', async (route) => {
      requests.push(route.request().url());
      await route.abort();
    });
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });

    // Act
    await page.setContent(html, { waitUntil: 'load' });
    await page.waitForTimeout(200);

    // Assess
    await expect(page.locator('[data-role="kpis"]').first().isVisible()).resolves.toBe(true);
    await expect(page.locator('[data-role="top"]').first().isVisible()).resolves.toBe(true);
    expect(await page.locator('[data-role="status-banner"]').textContent()).toContain('PARTIAL');
    expect(await page.locator('[data-role="overview"]').textContent()).toMatch(/posts[\s\S]*failed/);
    expect(await page.locator('[data-report="posts"] [data-role="failure"]').textContent()).toContain(
      'onerror=',
    );
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('script, img, iframe, form, link, object, embed').count()).toBe(0);
    expect(await page.locator('body').textContent()).toContain('<script>window.__pwned=1</script>');
    expect(dialogs).toEqual([]);
    expect(requests).toEqual([]);
    await mkdir(dirname(ARTIFACT), { recursive: true });
    await page.screenshot({ path: ARTIFACT, fullPage: true });
    expect(existsSync(ARTIFACT)).toBe(true);
    await context.close();
  });
});
