/**
 * What every Lambda handler shares, created once per container (module scope): the config, the
 * Powertools logger, metrics and tracer. The outside world is in `./io` (sink, mailer) and `./api` (the
 * API client), so each bundle carries only what its handler uses (Plan: S3 and the API client, no SES).
 * The CLI wires the same core in `cli/commands/run.ts`.
 *
 * The config is a file in the bundle: `cdk synth` writes the validated config as JSON beside the
 * bundled handler (`BUNDLED_CONFIG_FILE`, copied in after esbuild; it holds the secret's *name*, never a
 * value), and it is read once per container, at the first invocation. A config of any size reaches the
 * functions this way (it used to be an esbuild `define`, whose command line broke past ~55 KB), and a
 * changed config changes the bundle's hash, so `cdk deploy` updates the functions. The file is the
 * output of the zod schema at synth (`infra/app.ts` validates and fills the defaults), so it is not
 * parsed again here: that would pull zod's full build (≈ 450 KB) into every bundle, while the runtime
 * payload schemas use `zod/mini`. Run from source (the handler tests), `REPORT_EXPORTER_CONFIG_FILE`
 * names the file instead.
 */

import { readFileSync } from 'node:fs';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { BUNDLED_CONFIG_FILE } from '#core/config/bundled';
import type { Config } from '#core/config/schema';
import type { Log, LogFields } from '#core/log';
import { METRICS_NAMESPACE, SERVICE } from './metric-names';
import { mapStackTracesLazily } from './stack-traces';

// stack traces in TypeScript terms, the bundle's source map read at the first trace, not at every
// cold start (no `--enable-source-maps`: see ./stack-traces)
mapStackTracesLazily(import.meta.url);

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
  // a segment per invocation (cold start, errors) with the outgoing HTTPS calls (API, S3, SES) under
  // it; no response in the trace: it carries the API's data (the summary's top rows)
  const wrapped = middy<unknown, R, Error, Context>(fn, { timeoutEarlyInMillis: 0 })
    .use(captureLambdaHandler(tracer, { captureResponse: false }))
    .use(injectLambdaContext(logger, { resetKeys: true }));
  const handler = options.metrics ? wrapped.use(logMetrics(metrics)) : wrapped;
  return (event, context) => handler(event, context as Context);
}

export const logger = new Logger({ serviceName: SERVICE });
/** X-Ray through Powertools: active only in Lambda with tracing on (the stack sets Tracing.ACTIVE). */
export const tracer = new Tracer({ serviceName: SERVICE });
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE });
export { MetricUnit };

/**
 * A field named `message` (a report warning's text) would be dropped by Powertools, whose own
 * `message` is the line's; it is kept as `detail`.
 */
function fieldsOf(fields: LogFields | undefined): LogFields {
  if (fields === undefined || !Object.hasOwn(fields, 'message')) return { ...fields };
  const { message, ...rest } = fields;
  return { ...rest, detail: message };
}

/** The core's narrow Log interface on the Powertools logger (structured JSON, secret-free fields). */
export const log: Log = {
  debug: (message: string, fields?: LogFields) => logger.debug(message, fieldsOf(fields)),
  info: (message: string, fields?: LogFields) => logger.info(message, fieldsOf(fields)),
  warn: (message: string, fields?: LogFields) => logger.warn(message, fieldsOf(fields)),
  error: (message: string, fields?: LogFields) => logger.error(message, fieldsOf(fields)),
};

let config: Config | undefined;

/** Where the config file is: beside the bundle, or `REPORT_EXPORTER_CONFIG_FILE` (run from source). */
function configFilePath(): string | URL {
  return process.env.REPORT_EXPORTER_CONFIG_FILE ?? new URL(`./${BUNDLED_CONFIG_FILE}`, import.meta.url);
}

/** The bundled config (validated at synth; read and parsed once per container). */
export function runtimeConfig(): Config {
  if (config) return config;
  const path = configFilePath();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err: unknown) {
    throw new Error(
      `no bundled config at ${String(path)}: deploy the handlers with the CDK app (infra/), which bundles it`,
      { cause: err },
    );
  }
  const json: unknown = JSON.parse(text);
  if (!isConfigShaped(json)) throw new Error('the bundled config is not a report-exporter config: redeploy');
  config = json;
  return config;
}

/** A cheap shape check of the bundled (already validated) config. */
function isConfigShaped(json: unknown): json is Config {
  if (typeof json !== 'object' || json === null) return false;
  const { api, output, schedules } = json as Partial<Record<keyof Config, unknown>>;
  return typeof api === 'object' && api !== null && typeof output === 'object' && Array.isArray(schedules);
}
