/**
 * A Mailer that writes each message into a folder instead of sending it: `<n>-<slug>.eml` (the exact
 * raw MIME SES would get) and `<n>-<slug>.html` (the HTML part, for a browser preview). Used by
 * `run --email-dir` and `demo`.
 */
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

/** `FAILED: Weekly – x` → `failed-weekly-x`; ASCII only, capped, never empty. */
export function slug(subject: string): string {
  const s = subject
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s || 'summary';
}
