/**
 * The summary email of one run (docs/email.md): renders the run once, picks the CSV attachments, and
 * sends one message per ≤ 50 recipients (SES v2's per-message limit).
 */
import { ExporterError } from '../errors';
import { planAttachments } from './attachments';
import { renderHtml } from './html';
import { buildView } from './model';
import { subjectFor } from './subject';
import { renderText } from './text';
import type { EmailMessage, Mailer, SummaryInput } from './types';

/** SES v2 accepts at most 50 destination addresses per message. */
export const MAX_RECIPIENTS_PER_MESSAGE = 50;

/**
 * Renders the run's summary and sends it to the schedule's recipients through `mailer`.
 * Sends nothing (and reads nothing) when the schedule has no recipients.
 * @returns the number of messages sent.
 * @throws ExporterError EMAIL_FAILED when an address is unusable or the mailer fails.
 */
export async function deliverSummary(input: SummaryInput, mailer: Mailer): Promise<{ sent: number }> {
  const recipients = uniqueRecipients(input.schedule.recipients);
  if (recipients.length === 0) return { sent: 0 };
  const messages = await renderSummary(input, recipients);
  for (const message of messages) await mailer.send(message);
  return { sent: messages.length };
}

/** Everything `deliverSummary` sends, without sending it (for previews and tests). */
export async function renderSummary(
  input: SummaryInput,
  recipients: readonly string[] = uniqueRecipients(input.schedule.recipients),
): Promise<EmailMessage[]> {
  const from = input.config.email?.from;
  if (from === undefined) {
    throw new ExporterError(
      'EMAIL_FAILED',
      `schedule ${input.schedule.id} has recipients but the config has no email.from`,
    );
  }
  assertSingleLine('email.from', from);
  const view = buildView(input);
  // Render once without the attachment note to size the bodies, then for real.
  const draft = renderHtml(view, { attached: [], reason: null });
  const plan = await planAttachments(
    input.manifest,
    { maxMiB: input.config.email?.attachCsvUpToMiB ?? 0, bodyBytes: Buffer.byteLength(draft) * 2 },
    input.readObject,
  );
  const note = { attached: plan.attachments.map((a) => a.filename), reason: plan.reason };
  const base = {
    from,
    subject: subjectFor(view.title, input.manifest),
    html: renderHtml(view, note),
    text: renderText(view, note),
    attachments: plan.attachments,
  };
  return chunk(recipients, MAX_RECIPIENTS_PER_MESSAGE).map((to) => ({ ...base, to }));
}

/** Trimmed, de-duplicated (case-insensitively), each checked for line breaks. */
function uniqueRecipients(list: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of list) {
    const address = raw.trim();
    assertSingleLine('a recipient address', address);
    if (address === '' || seen.has(address.toLowerCase())) continue;
    seen.add(address.toLowerCase());
    out.push(address);
  }
  return out;
}

/** The config schema already rejects these; checked again because a header must never break. */
function assertSingleLine(what: string, value: string): void {
  if (/[\p{Cc}\u2028\u2029]/u.test(value)) {
    throw new ExporterError(
      'EMAIL_FAILED',
      `${what} contains a line break or control character; fix the config`,
    );
  }
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
