/**
 * What every Lambda handler shares, created once per container (module scope): the config, the
 * Powertools logger and metrics. The outside world (sink, API client, mailer) is in `./io`, so the
 * Plan bundle does not carry the HTTP and S3 code. The CLI wires the same core in `cli/commands/run.ts`.
 *
 * The config is embedded in the bundle at synth time: esbuild `define` replaces
 * `__REPORT_EXPORTER_CONFIG__` with the validated config as base64 JSON (it holds the secret's *name*,
 * never a value). It is the output of the zod schema at synth (`infra/app.ts` validates and fills
 * the defaults), so it is not parsed again here: that would pull zod's full build (≈ 450 KB) into every
 * bundle, while the runtime payload schemas use `zod/mini`. Run from source (the handler tests), the
 * same global is set on `globalThis` before the handlers are called.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { Config } from '#core/config/schema';
import type { Log, LogFields } from '#core/log';
import { METRICS_NAMESPACE, SERVICE } from './metric-names';

/** Replaced by esbuild `define` in the deployed bundle; a `globalThis` property when run from source. */
declare const __REPORT_EXPORTER_CONFIG__: string | undefined;

/** The parts of the Lambda context the handlers use (tests pass just these). */
export interface LambdaContext {
  getRemainingTimeInMillis(): number;
  readonly awsRequestId?: string;
}

/**
 * A Lambda entry point the way Powertools documents it (Middy): the Lambda context (request id,
 * function name, cold start) in every log line with per-invocation keys reset, and — with
 * `metrics: true` — the invocation's metrics flushed when it returns or throws.
 */
export function lambdaHandler<R>(
  fn: (event: unknown, context: LambdaContext) => Promise<R>,
  options: { readonly metrics: boolean },
): (event: unknown, context: LambdaContext) => Promise<R> {
  // the core watches the deadline itself (continuation checkpoints), so Middy's early timeout is off
  const wrapped = middy<unknown, R, Error, Context>(fn, { timeoutEarlyInMillis: 0 }).use(
    injectLambdaContext(logger, { resetKeys: true }),
  );
  const handler = options.metrics ? wrapped.use(logMetrics(metrics)) : wrapped;
  return (event, context) => handler(event, context as Context);
}

export const logger = new Logger({ serviceName: SERVICE });
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE });
export { MetricUnit };

/** The core's narrow Log interface on the Powertools logger (structured JSON, secret-free fields). */
export const log: Log = {
  debug: (message: string, fields?: LogFields) => logger.debug(message, { ...fields }),
  info: (message: string, fields?: LogFields) => logger.info(message, { ...fields }),
  warn: (message: string, fields?: LogFields) => logger.warn(message, { ...fields }),
  error: (message: string, fields?: LogFields) => logger.error(message, { ...fields }),
};

let config: Config | undefined;

/** The embedded config (validated at synth; parsed once per container). */
export function runtimeConfig(): Config {
  if (config) return config;
  if (typeof __REPORT_EXPORTER_CONFIG__ !== 'string') {
    throw new Error('no embedded config: deploy the handlers with the CDK app (infra/), which embeds it');
  }
  const json: unknown = JSON.parse(Buffer.from(__REPORT_EXPORTER_CONFIG__, 'base64').toString('utf8'));
  if (!isConfigShaped(json)) throw new Error('the embedded config is not a report-exporter config: redeploy');
  config = json;
  return config;
}

/** A cheap shape check of the embedded (already validated) config. */
function isConfigShaped(json: unknown): json is Config {
  if (typeof json !== 'object' || json === null) return false;
  const { api, output, schedules } = json as Partial<Record<keyof Config, unknown>>;
  return typeof api === 'object' && api !== null && typeof output === 'object' && Array.isArray(schedules);
}
