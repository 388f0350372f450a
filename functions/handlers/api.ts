/**
 * The Export handler's API client, one per container: credentials from the Secrets Manager secret the
 * config names (cached per container with a TTL by the credentials adapter), retries counted for the
 * `retries` metric.
 */
import { createCredentialsProvider } from '#adapters/credentials';
import { createApiClient } from '#core/api/client';
import { apiOptionsOf } from '#core/api/from-config';
import type { ReportingApi } from '#core/api/types';
import type { Config } from '#core/config/schema';
import { createHttp } from '#http';
import { log } from './wiring';

/** API retries seen by this container's client; the Export handler reports the difference per call. */
export const apiCounters = { retries: 0 };

/**
 * Time kept back from the API at the end of an invocation: when retries would run into it they stop,
 * the report fails cleanly (uploads aborted, outcome returned) instead of the Lambda timing out.
 */
export const API_RESERVE_MS = 15_000;

let api: ReportingApi | undefined;
let timeLeftMs: () => number = () => Number.POSITIVE_INFINITY;

/**
 * The container's API client. Several Export Lambdas run at once (the Map's `maxConcurrency`,
 * `mapConcurrency`), so each gets its share of `api.concurrency`, keeping a run within that bound.
 * `invocationTimeLeftMs` is this invocation's remaining time: attempts and retry sleeps never pass it
 * (less the reserve).
 */
export function apiClient(
  cfg: Config,
  mapConcurrency: number,
  invocationTimeLeftMs: () => number,
): ReportingApi {
  timeLeftMs = invocationTimeLeftMs;
  const share = Math.max(1, Math.floor(cfg.api.concurrency / mapConcurrency));
  api ??= createApiClient({
    ...apiOptionsOf(cfg.api),
    http: createHttp,
    credentials: createCredentialsProvider({ secretId: cfg.api.credentialsSecret, log }),
    concurrency: share,
    deadlineMs: () => timeLeftMs() - API_RESERVE_MS,
    log,
    events: {
      onRetry: () => {
        apiCounters.retries += 1;
      },
    },
  });
  return api;
}
