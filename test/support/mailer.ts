/** A mailer that keeps what it was asked to send (not a test file). */
import type { EmailMessage, Mailer } from '#core/email/types';

export function recordingMailer(): Mailer & { sent: EmailMessage[] } {
  const sent: EmailMessage[] = [];
  return {
    sent,
    send: async (m) => {
      sent.push(m);
      return `id-${sent.length}`;
    },
  };
}
