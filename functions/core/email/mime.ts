/** Raw MIME for one message, built by nodemailer's MailComposer (headers encoded, lines folded). */
import MailComposer from 'nodemailer/lib/mail-composer';
import type { EmailMessage } from './types';

/** Builds the RFC 5322 bytes: multipart/alternative (text, html) inside multipart/mixed with the CSVs. */
export async function composeMime(message: EmailMessage): Promise<Buffer> {
  const composer = new MailComposer({
    from: message.from,
    to: [...message.to],
    subject: message.subject,
    ...(message.replyTo !== undefined ? { replyTo: message.replyTo } : {}),
    // RFC 3834: machine-sent, so out-of-office and other auto-responders stay quiet.
    headers: { 'Auto-Submitted': 'auto-generated' },
    text: message.text,
    html: message.html,
    attachments: message.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength),
    })),
  });
  return composer.compile().build();
}
