/**
 * A Mailer that writes each message into a folder instead of sending it: `<n>-<slug>.eml` (the exact
 * raw MIME SES would get) and `<n>-<slug>.html` (the HTML part, for a browser preview). Used by
 * `run --email-dir` and `demo`.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { composeMime } from '#core/email/mime';
import type { EmailMessage, Mailer } from '#core/email/types';
import { ExporterError } from '#core/errors';

/** Creates the mailer; `dir` is created on first send. Numbers continue after files already there. */
export function createOutboxMailer(dir: string): Mailer {
  let queue: Promise<unknown> = Promise.resolve();
  const send = async (message: EmailMessage): Promise<string> => {
    try {
      await mkdir(dir, { recursive: true });
      const n = (await highestNumber(dir)) + 1;
      const base = `${String(n).padStart(3, '0')}-${slug(message.subject)}`;
      await writeFile(join(dir, `${base}.eml`), await composeMime(message));
      await writeFile(join(dir, `${base}.html`), message.html, 'utf8');
      return `${base}.eml`;
    } catch (err: unknown) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new ExporterError('EMAIL_FAILED', `could not write the email to ${dir}: ${reason}`, {
        cause: err,
      });
    }
  };
  return {
    // Serialised, so two concurrent sends never pick the same number.
    send(message) {
      const next = queue.then(() => send(message));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

async function highestNumber(dir: string): Promise<number> {
  const names = await readdir(dir);
  return names.reduce((max, name) => Math.max(max, Number(/^(\d+)-/.exec(name)?.[1] ?? 0)), 0);
}

/** Longest slug kept whole; a longer one is cut at a word boundary and given a hash of the whole. */
export const SLUG_MAX = 80;

/**
 * `FAILED: Weekly – x` → `failed-weekly-x`; ASCII only, never empty. A slug longer than `SLUG_MAX`
 * keeps its whole words up to the limit and ends in 8 hex digits of the full slug's SHA-256, so it
 * is never cut mid-word and two long subjects that share a beginning still get different names.
 */
export function slug(subject: string): string {
  const s = subject
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (s.length <= SLUG_MAX) return s || 'summary';
  const hash = createHash('sha256').update(s).digest('hex').slice(0, 8);
  const room = SLUG_MAX - hash.length - 1;
  const cut = s.lastIndexOf('-', room);
  // a first word longer than the room is the only word cut (there is no boundary to keep)
  const head = cut > 0 ? s.slice(0, cut) : s.slice(0, room);
  return `${head}-${hash}`;
}
