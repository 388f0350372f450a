/**
 * The summary email's inputs and the narrow sending interface. Rendering and attachment choice live in
 * `./summary.ts` (`deliverSummary`); the Mailer is SES (`#adapters/ses-mailer`) or a folder of .eml and
 * .html files (`#adapters/outbox-mailer`).
 */
import type { Config, ScheduleConfig } from '../config/schema';
import type { SummaryRow } from '../export/top';
import type { Manifest } from '../manifest';

export interface EmailAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Uint8Array;
}

/** One message, fully rendered. Addresses are validated by the config schema; no CR/LF anywhere. */
export interface EmailMessage {
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  /** Where replies go (`email.replyTo`); absent: to the sender. */
  readonly replyTo?: string;
  /** Who the content is for: the numbers (stakeholders) or the technical detail (operators). */
  readonly audience?: 'stakeholders' | 'operators';
  readonly html: string;
  readonly text: string;
  readonly attachments: readonly EmailAttachment[];
}

export interface Mailer {
  /** Sends (or stores) one message; resolves to its message id. */
  send(message: EmailMessage): Promise<string>;
}

export interface SummaryInput {
  readonly config: Config;
  readonly schedule: ScheduleConfig;
  readonly manifest: Manifest;
  /** The previous run's manifest of this schedule, for deltas; null when there is none. */
  readonly previous: Manifest | null;
  /** Top-N rows per report id, largest `topBy` first. */
  readonly top: Readonly<Record<string, readonly SummaryRow[]>>;
  /** Where a key is, for people: `s3://bucket/key` or a file path. */
  readonly locate: (key: string) => string;
  /** Reads an exported object (to attach CSVs); null when it is gone. */
  readonly readObject: (key: string) => Promise<Uint8Array | null>;
  /**
   * Reads an SSM parameter named by an `ssm:/path` recipient entry, at send time. Absent: such an
   * entry fails the email with EMAIL_FAILED (nothing can read it).
   */
  readonly readParameter?: ParameterReader;
}

/** The value of a String or StringList parameter (comma-separated addresses). */
export type ParameterReader = (name: string) => Promise<string>;
