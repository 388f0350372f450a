/**
 * `npm run screenshot`: runs the demo (fixed date, so the picture only changes when the email does)
 * and saves the weekly stakeholders' email at 1280 px as docs/images/demo-email.png, the picture in
 * the README. `npm run screenshot -- --all DIR` also saves every demo email at 390 and 1280 px in DIR.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDemo } from '#cli/commands/demo';
import { hasChromium, INSTALL_CHROMIUM, launchChromium, renderEmail } from './chromium';

const NOW = new Date('2026-11-23T12:00:00Z');
const README_IMAGE = new URL('../docs/images/demo-email.png', import.meta.url).pathname;

async function main(): Promise<void> {
  if (!hasChromium()) throw new Error(INSTALL_CHROMIUM);
  const allIndex = process.argv.indexOf('--all');
  const allDir = allIndex > 0 ? process.argv[allIndex + 1] : undefined;
  const out = await mkdtemp(join(tmpdir(), 'report-exporter-demo-'));
  const browser = await launchChromium();
  try {
    await runDemo(out, NOW);
    const outbox = join(out, 'outbox');
    const pages = (await readdir(outbox)).filter((f) => f.endsWith('.html')).sort();
    const weekly = pages.find((f) => f.includes('weekly') && !f.includes('run-details'));
    if (!weekly) throw new Error('the demo wrote no weekly stakeholders email');
    const shot = await renderEmail(browser, await readFile(join(outbox, weekly), 'utf8'), 1280, README_IMAGE);
    process.stdout.write(`${README_IMAGE} (${weekly}, scrollWidth ${shot.scrollWidth})\n`);
    if (allDir) {
      for (const f of pages) {
        const html = await readFile(join(outbox, f), 'utf8');
        for (const width of [390, 1280]) {
          const png = join(allDir, `${f.replace(/\.html$/, '')}-${width}.png`);
          const r = await renderEmail(browser, html, width, png);
          process.stdout.write(`${png} scrollWidth ${r.scrollWidth}\n`);
        }
      }
    }
  } finally {
    await browser.close();
    await rm(out, { recursive: true, force: true });
  }
}

await main();
