/**
 * The outside world of the Export and Finalize handlers, created once per container: the S3 sink on
 * `BUCKET_NAME` and the SES mailer. The API client is in `./api` (only Export carries the HTTP code).
 */
import { createS3Sink } from '#adapters/s3-sink';
import { createSesMailer } from '#adapters/ses-mailer';
import { type LeaseOptions, WORKFLOW_LEASE } from '#core/commit/lease';
import type { Config } from '#core/config/schema';
import type { Mailer } from '#core/email/types';
import type { Sink } from '#core/sink';
import { requiredEnv } from './wiring';

let sink: Sink | undefined;
/** The S3 sink on the bucket named by `BUCKET_NAME` (client from the SDK's default chain). */
export function exportSink(): Sink {
  sink ??= createS3Sink(requiredEnv('BUCKET_NAME'));
  return sink;
}

let mailer: Mailer | undefined;
/** The SES v2 mailer, or null when the config has no email section. */
export function summaryMailer(cfg: Config): Mailer | null {
  if (!cfg.email) return null;
  mailer ??= createSesMailer();
  return mailer;
}

/** The workflow's lease, with its wait shortened by `LEASE_WAIT_MS` (tests). */
export function leaseFromEnv(): { lease?: LeaseOptions } {
  const raw = process.env.LEASE_WAIT_MS;
  return raw === undefined ? {} : { lease: { ...WORKFLOW_LEASE, waitMs: Number(raw) } };
}

/** Optional tuning from the environment (tests shorten the continuation margin). */
export function safetyMarginMs(): number | undefined {
  const raw = process.env.SAFETY_MARGIN_MS;
  return raw === undefined ? undefined : Number(raw);
}
