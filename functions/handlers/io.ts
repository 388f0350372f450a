/**
 * The outside world of the Export and Finalize handlers, created once per container: the S3 sink on
 * the stack's bucket and the SES mailer. The API client is in `./api` (Export's, and Plan's for the run's credentials preflight).
 */
import { createS3Sink } from '#adapters/s3-sink';
import { createSesMailer } from '#adapters/ses-mailer';
import type { Config } from '#core/config/schema';
import type { Mailer } from '#core/email/types';
import type { Sink } from '#core/sink';

let sink: Sink | undefined;
/** The S3 sink on `bucket` (the handler's `BUCKET_NAME`; client from the SDK's default chain). */
export function exportSink(bucket: string): Sink {
  sink ??= createS3Sink(bucket);
  return sink;
}

let mailer: Mailer | undefined;
/** The SES v2 mailer, or null when the config has no email section. */
export function summaryMailer(cfg: Config): Mailer | null {
  if (!cfg.email) return null;
  mailer ??= createSesMailer();
  return mailer;
}
