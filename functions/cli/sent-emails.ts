/**
 * What `run`/`backfill` tell the user about the summary emails they sent: one line per message with
 * its recipients and SES message id (`--send-email`) or file name (`--email-dir`), printed after the
 * result lines so it never interleaves with the progress bars.
 */
import { join } from 'node:path';
import type { EmailMessage, Mailer } from '#core/email/types';

export interface SentEmail {
  readonly to: readonly string[];
  readonly audience: EmailMessage['audience'];
  readonly subject: string;
  /** SES's MessageId, or the .eml file's name in the outbox folder. */
  readonly id: string;
}

/** `inner`, recording each message it accepted into `sent`; null stays null (no email). */
export function recordingMailer(inner: Mailer | null, sent: SentEmail[]): Mailer | null {
  if (!inner) return null;
  return {
    async send(message) {
      const id = await inner.send(message);
      sent.push({ to: message.to, audience: message.audience, subject: message.subject, id });
      return id;
    },
  };
}

/** One line per email to stdout: `email sent to a@x, b@y (stakeholders): message id 0100…`. */
export function reportSentEmails(
  sent: readonly SentEmail[],
  how: { readonly sendEmail?: boolean; readonly emailDir?: string },
  write: (line: string) => void = (line) => process.stdout.write(line),
): void {
  for (const e of sent) {
    const who = `${e.to.join(', ')}${e.audience ? ` (${e.audience})` : ''}`;
    write(
      how.sendEmail === true
        ? `email sent to ${who}: message id ${e.id}\n`
        : `email written for ${who}: ${join(how.emailDir ?? '.', e.id)}\n`,
    );
  }
}
