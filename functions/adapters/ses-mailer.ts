/**
 * Sends summary emails through SES v2 `SendEmail` with raw MIME (always raw: one code path, and
 * attachments need it anyway). The client is created once per process; its endpoint, region and
 * credentials come from the SDK's own chain (`AWS_ENDPOINT_URL_SESV2` points it at an emulator).
 */
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { bareAddress } from '#core/config/mailbox';
import { composeMime } from '#core/email/mime';
import type { EmailMessage, Mailer } from '#core/email/types';
import { ExporterError } from '#core/errors';

/** SES v2 error names that mean "slow down", worth a retry with backoff. */
const THROTTLING = new Set(['TooManyRequestsException', 'ThrottlingException', 'Throttling']);

export interface SesMailerOptions {
  readonly client?: SESv2Client;
  /** Attempts for a throttled send (first try included). Default 4. */
  readonly maxAttempts?: number;
  /** Base backoff in ms; attempt n waits a random time up to base × 2ⁿ (full jitter). Default 500. */
  readonly baseDelayMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

let shared: SESv2Client | undefined;

/** The process-wide client (Lambda reuses it across invocations). */
function sharedClient(): SESv2Client {
  shared ??= new SESv2Client({});
  return shared;
}

/** A Mailer that sends each message as raw MIME through SES v2; resolves to SES's MessageId. */
export function createSesMailer(options: SesMailerOptions = {}): Mailer {
  const client = options.client ?? sharedClient();
  const maxAttempts = options.maxAttempts ?? 4;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  return {
    async send(message: EmailMessage): Promise<string> {
      const raw = await composeMime(message);
      const command = new SendEmailCommand({
        // The bare address: a display name with non-ASCII characters would need encoded-words here,
        // while the From header inside the raw MIME already carries it, encoded by MailComposer.
        FromEmailAddress: bareAddress(message.from),
        Destination: { ToAddresses: [...message.to] },
        Content: { Raw: { Data: raw } },
      });
      for (let attempt = 1; ; attempt++) {
        try {
          const out = await client.send(command);
          return out.MessageId ?? '';
        } catch (err: unknown) {
          if (isThrottling(err) && attempt < maxAttempts) {
            await sleep(Math.random() * baseDelayMs * 2 ** attempt);
            continue;
          }
          throw emailFailed(err, message.to.length, attempt);
        }
      }
    },
  };
}

function isThrottling(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const meta = err as Error & { $retryable?: { throttling?: boolean } };
  return THROTTLING.has(err.name) || meta.$retryable?.throttling === true;
}

/** A secret-free error: SES's error name and its (address-level, never credential) message, capped. */
function emailFailed(err: unknown, recipients: number, attempts: number): ExporterError {
  const name = err instanceof Error ? err.name : 'Error';
  const detail =
    err instanceof Error ? err.message.replace(/\s+/g, ' ').slice(0, 300) : String(err).slice(0, 300);
  const status = (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return new ExporterError(
    'EMAIL_FAILED',
    `SES did not send the summary email to ${recipients} recipient(s) after ${attempts} attempt(s): ${name}${status ? ` (HTTP ${status})` : ''}: ${detail}`,
    {
      cause: err,
      retryable: isThrottling(err),
      details: { errorName: name, httpStatus: status ?? null, attempts },
    },
  );
}
