/**
 * Headless Debian Chromium for the summary emails: loads an HTML email at a given width with
 * JavaScript on and every request blocked, reports what a reader's browser would (horizontal overflow,
 * requests, dialogs, injected scripts) and optionally saves a full-page screenshot. Used by the
 * rendering tests and by `npm run screenshot`.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.EMAIL_TEST_CHROMIUM ?? '/usr/bin/chromium';
export const INSTALL_CHROMIUM = 'install Debian chromium (apt-get install chromium)';

export const hasChromium = (): boolean => existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
}

export interface Rendered {
  /** `document.documentElement.scrollWidth`: wider than the viewport means sideways scrolling. */
  readonly scrollWidth: number;
  /** `document.documentElement.scrollHeight`: how tall the email is at this width, in CSS px. */
  readonly scrollHeight: number;
  readonly requests: readonly string[];
  readonly dialogs: readonly string[];
  /** Set only if an injected script ran. */
  readonly pwned: unknown;
  readonly text: string;
}

/** Renders `html` at `width` px; saves a full-page PNG at `screenshot` when given. */
export async function renderEmail(
  browser: Browser,
  html: string,
  width: number,
  screenshot?: string,
): Promise<Rendered> {
  const context = await browser.newContext({ javaScriptEnabled: true, viewport: { width, height: 900 } });
  try {
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
    await page.setContent(html, { waitUntil: 'load' });
    await page.waitForTimeout(100);
    const [scrollWidth, scrollHeight] = await page.evaluate(() => {
      const root = (
        globalThis as unknown as {
          document: { documentElement: { scrollWidth: number; scrollHeight: number } };
        }
      ).document.documentElement;
      return [root.scrollWidth, root.scrollHeight] as const;
    });
    const pwned = await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned);
    const text = (await page.locator('body').textContent()) ?? '';
    if (screenshot) {
      await mkdir(dirname(screenshot), { recursive: true });
      await page.screenshot({ path: screenshot, fullPage: true });
    }
    return { scrollWidth, scrollHeight, requests, dialogs, pwned, text };
  } finally {
    await context.close();
  }
}
