import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutboxMailer, SLUG_MAX, slug } from '#adapters/outbox-mailer';
import type { EmailMessage } from '#core/email/types';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'outbox-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const message = (subject: string): EmailMessage => ({
  from: 'reports@example.com',
  to: ['a@example.com'],
  subject,
  html: '<p>preview</p>',
  text: 'preview',
  attachments: [],
});

describe('createOutboxMailer', () => {
  it('writes a numbered .eml and .html per message into a folder it creates', async () => {
    const out = join(dir, 'outbox');
    const mailer = createOutboxMailer(out);
    const [a, b] = await Promise.all([
      mailer.send(message('PARTIAL: Weekly: 2026-11-16 – 2026-11-22')),
      mailer.send(message('Monthly: 2026-10-01 – 2026-10-31')),
    ]);
    expect(a).toBe('001-partial-weekly-2026-11-16-2026-11-22.eml');
    expect(b).toBe('002-monthly-2026-10-01-2026-10-31.eml');
    expect((await readdir(out)).sort()).toEqual([
      '001-partial-weekly-2026-11-16-2026-11-22.eml',
      '001-partial-weekly-2026-11-16-2026-11-22.html',
      '002-monthly-2026-10-01-2026-10-31.eml',
      '002-monthly-2026-10-01-2026-10-31.html',
    ]);
    expect(await readFile(join(out, '001-partial-weekly-2026-11-16-2026-11-22.html'), 'utf8')).toBe(
      '<p>preview</p>',
    );
    const eml = await readFile(join(out, a), 'utf8');
    expect(eml).toMatch(/^To: a@example.com\r\n/m);
    expect(eml).toContain('Content-Type: text/html');
  });

  it('continues numbering after files already in the folder (a second run does not overwrite)', async () => {
    await createOutboxMailer(dir).send(message('One'));
    const second = await createOutboxMailer(dir).send(message('Two'));
    expect(second).toBe('002-two.eml');
  });
});

describe('slug', () => {
  it('makes a short ASCII file name and never an empty one', () => {
    expect(slug('Über: ../../etc/passwd 🚀')).toBe('uber-etc-passwd');
    expect(slug('🚀')).toBe('summary');
  });

  it('shortens a long subject at a word boundary and adds a hash, so "run detail" never sits beside "run details"', () => {
    const base = 'Weekly campaign performance of every Instagram creator 2026-11-16 – 2026-11-22';
    const a = slug(`${base} run details`);
    const b = slug(`${base} run detail`);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^weekly-campaign-performance-of-every-instagram-creator-2026-11-16-2026-[0-9a-f]{8}$/);
  });

  it('property: at most SLUG_MAX characters, the same for the same subject, whole words of the full slug, distinct for distinct long slugs', () => {
    const words = [
      'run',
      'details',
      'detail',
      'weekly',
      'x',
      'campaign-performance',
      '2026-11-22',
      'überblick',
      'a',
    ];
    const seen = new Map<string, string>();
    // every sequence of up to 12 words from a deterministic walk over the list
    for (let i = 0; i < 3000; i++) {
      const subject = Array.from(
        { length: 1 + (i % 12) },
        (_, k) => words[(i * 7 + k * ((i % 5) + 1)) % words.length],
      ).join(' ');
      const full = slug(subject.repeat(1 + (i % 3)));
      const again = slug(subject.repeat(1 + (i % 3)));
      expect(full).toBe(again);
      expect(full.length).toBeLessThanOrEqual(SLUG_MAX);
      const whole = subject
        .repeat(1 + (i % 3))
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '');
      if (whole.length <= SLUG_MAX) expect(full).toBe(whole);
      else {
        const head = full.slice(0, -9);
        expect(`${whole}-`.startsWith(`${head}-`), `${full} cuts a word of ${whole}`).toBe(true);
        const other = seen.get(full);
        if (other !== undefined) expect(other).toBe(whole);
        seen.set(full, whole);
      }
    }
  });
});
