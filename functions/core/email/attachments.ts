/**
 * Which CSV files ride along as attachments, as guarded copies: people open them in spreadsheets, so
 * every cell that a spreadsheet would run as a formula (header cells too) gets a leading `'`; the
 * exported files themselves stay exact. All of the run's CSVs are attached, or none: half a set
 * is confusing. They are attached only while their total stays within `email.attachCsvUpToMiB` AND the
 * whole base64-encoded message stays well under SES v2's 40 MB limit; otherwise the email lists the
 * locations and says why.
 */
import { guardCsv } from '../export/csv-guard';
import { parsePartKey } from '../export/keys';
import type { Manifest } from '../manifest';
import { formatBytes } from './format';
import type { EmailAttachment } from './types';

const MIB = 1024 * 1024;
/** SES v2 accepts 40 MB per message including encoding; we stay far below it. */
export const SES_MESSAGE_LIMIT_BYTES = 40_000_000;
/** Our ceiling for the encoded message: room for the HTML, the text part and MIME headers. */
export const MESSAGE_BUDGET_BYTES = 30_000_000;
/** Base64 turns 3 bytes into 4 and wraps lines at 76 characters (+2 for CRLF). */
export const base64Size = (bytes: number): number => Math.ceil(bytes / 3) * 4 * (78 / 76);

export interface AttachmentPlan {
  readonly attachments: readonly EmailAttachment[];
  /** Why nothing is attached, in plain words (no locations: stakeholders read it too); null when attached or no CSV. */
  readonly reason: string | null;
}

export interface AttachmentLimits {
  readonly maxMiB: number;
  /** Bytes already used by the bodies (HTML + text), counted against the message budget. */
  readonly bodyBytes: number;
}

/**
 * Reads and returns the run's CSV files when they fit, else no attachment and the reason.
 * Files of failed reports are not attached (the manifest lists none for them anyway).
 */
export async function planAttachments(
  manifest: Manifest,
  limits: AttachmentLimits,
  readObject: (key: string) => Promise<Uint8Array | null>,
): Promise<AttachmentPlan> {
  const files = manifest.reports
    .filter((r) => r.status === 'succeeded')
    .flatMap((r) => r.files.filter((f) => f.format === 'csv').map((f) => ({ report: r.reportId, file: f })));
  if (files.length === 0) return { attachments: [], reason: null };
  const total = files.reduce((sum, f) => sum + f.file.bytes, 0);
  const listed = `the CSV files (${formatBytes(total)} together)`;
  if (limits.maxMiB <= 0) {
    return {
      attachments: [],
      reason: `CSV attachments are turned off, so ${listed} are not attached.`,
    };
  }
  if (total > limits.maxMiB * MIB) {
    return {
      attachments: [],
      reason: `${capitalise(listed)} are larger than the ${limits.maxMiB} MiB attachment limit, so they are not attached.`,
    };
  }
  const encoded =
    files.reduce((sum, f) => sum + base64Size(f.file.bytes) + 512, 0) + base64Size(limits.bodyBytes) * 2;
  if (encoded > MESSAGE_BUDGET_BYTES) {
    return {
      attachments: [],
      reason: `${capitalise(listed)} would make the email too large to send safely (SES accepts at most 40 MB per message), so they are not attached.`,
    };
  }
  const attachments: EmailAttachment[] = [];
  for (const { report, file } of files) {
    const content = await readObject(file.key);
    if (content === null) {
      return {
        attachments: [],
        reason: `A CSV file of report ${report} could not be read back, so none are attached.`,
      };
    }
    attachments.push({
      filename: attachmentName(report, file.key),
      contentType: 'text/csv; charset=utf-8',
      content: guardCsv(content),
    });
  }
  return { attachments, reason: null };
}

/** `campaigns-2026-11-22-part-00000.csv` from `…/campaigns/csv/dt=2026-11-22/part-00000.csv`. */
export function attachmentName(reportId: string, key: string): string {
  const parsed = parsePartKey(key);
  const part = parsed?.fileName ?? key.split('/').pop() ?? 'part.csv';
  const name = [reportId, parsed?.windowEnd, part].filter(Boolean).join('-');
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
