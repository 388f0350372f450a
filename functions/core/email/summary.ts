/**
 * The summary emails of one run (docs/email.md): the stakeholders' (`recipients`: the numbers, in words they use) and
 * the operators' (`operators`: the same plus errors with codes, warnings, file locations, run ids).
 * Each is rendered once, carries the CSV attachments, and is sent in messages of ≤ 50 recipients
 * (SES v2's per-message limit).
 */
import { ExporterError } from '../errors';
import { planAttachments } from './attachments';
import { renderHtml } from './html';
import { type Audience, buildView } from './model';
import { operatorEntries, resolveRecipients } from './recipients';
import { renderSections } from './sections';
import { subjectFor } from './subject';
import { renderText } from './text';
import type { EmailMessage, Mailer, SummaryInput } from './types';

/** SES v2 accepts at most 50 destination addresses per message. */
export const MAX_RECIPIENTS_PER_MESSAGE = 50;

export interface Audiences {
  readonly stakeholders: readonly string[];
  readonly operators: readonly string[];
}

/**
 * Renders the run's summaries and sends them through `mailer`. SSM recipient lists are read now.
 * Sends nothing (and reads nothing) when nobody is to get an email.
 * @returns the number of messages sent.
 * @throws ExporterError EMAIL_FAILED when an address is unusable or the mailer fails.
 */
export async function deliverSummary(input: SummaryInput, mailer: Mailer): Promise<{ sent: number }> {
  const audiences: Audiences = {
    stakeholders: await resolveRecipients(input.schedule.recipients, input.readParameter),
    operators: await resolveRecipients(operatorEntries(input.config, input.schedule), input.readParameter),
  };
  if (audiences.stakeholders.length === 0 && audiences.operators.length === 0) return { sent: 0 };
  const messages = await renderSummary(input, audiences);
  for (const message of messages) await mailer.send(message);
  return { sent: messages.length };
}

/** Everything `deliverSummary` sends, without sending it (for previews and tests). */
export async function renderSummary(input: SummaryInput, audiences?: Audiences): Promise<EmailMessage[]> {
  const to = audiences ?? {
    stakeholders: await resolveRecipients(input.schedule.recipients, input.readParameter),
    operators: await resolveRecipients(operatorEntries(input.config, input.schedule), input.readParameter),
  };
  const email = input.config.email;
  if (email === undefined) {
    throw new ExporterError(
      'EMAIL_FAILED',
      `schedule ${input.schedule.id} has recipients but the config has no email.from`,
    );
  }
  assertSingleLine('email.from', email.from);
  if (email.replyTo !== undefined) assertSingleLine('email.replyTo', email.replyTo);
  const view = buildView(input, to.operators.length > 0);
  // Render once without the attachment note to size the bodies, then for real.
  const draft = renderHtml(view, { attached: [], reason: null }, 'operators');
  const plan = await planAttachments(
    input.manifest,
    { maxMiB: email.attachCsvUpToMiB, bodyBytes: Buffer.byteLength(draft) * 2 },
    input.readObject,
  );
  const note = { attached: plan.attachments.map((a) => a.filename), reason: plan.reason };
  const messages: EmailMessage[] = [];
  for (const audience of ['stakeholders', 'operators'] as const satisfies readonly Audience[]) {
    if (to[audience].length === 0) continue;
    const sections = renderSections({ view, input, audience });
    const base: Omit<EmailMessage, 'to'> = {
      from: email.from,
      ...(email.replyTo !== undefined ? { replyTo: email.replyTo } : {}),
      audience,
      subject: subjectFor(view.title, input.manifest, audience),
      html: renderHtml(view, note, audience, sections.html),
      text: renderText(view, note, audience, sections.text),
      attachments: plan.attachments,
    };
    for (const group of chunk(to[audience], MAX_RECIPIENTS_PER_MESSAGE))
      messages.push({ ...base, to: group });
  }
  return messages;
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
