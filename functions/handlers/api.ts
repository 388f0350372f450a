/**
 * The handlers' API clients. Export: one per container so warm starts reuse its connections and token;
 * credentials from the Secrets Manager secret the config names (cached per container with a TTL by
 * the credentials adapter). It holds configuration only: each invocation passes its own deadline
 * with its call (`ExportDeps.apiDeadlineMs` → `PageOptions.deadlineMs`) and gets its retries back in
 * its step's counts, so nothing one invocation writes is read by the next. Plan: a client per
 * invocation for the run's credentials preflight (`#core/run/credentials-check`), so each run asks
 * for its one token whatever a warm container fetched before.
 */
import { type ClientCredentials, createCredentialsProvider } from '#adapters/credentials';
import { createApiClient } from '#core/api/client';
import { apiOptionsOf } from '#core/api/from-config';
import type { ReportingApi } from '#core/api/types';
import type { Config } from '#core/config/schema';
import { createHttp } from '#http';
import { log } from './wiring';

/**
 * Time kept back from the API at the end of an invocation: when retries would run into it they stop,
 * the report fails or pauses cleanly (uploads aborted, outcome returned) instead of the Lambda timing out.
 */
export const API_RESERVE_MS = 15_000;

let api: ReportingApi | undefined;

/**
 * The container's API client. Several Export Lambdas run at once (the Map's `maxConcurrency`,
 * `mapConcurrency`), so each gets its share of `api.concurrency`, keeping a run within that bound.
 * The config and the Map's concurrency are the container's own (its environment and embedded config).
 */
export function apiClient(cfg: Config, mapConcurrency: number): ReportingApi {
  const share = Math.max(1, Math.floor(cfg.api.concurrency / mapConcurrency));
  api ??= createApiClient({
    ...apiOptionsOf(cfg.api),
    http: createHttp,
    credentials: createCredentialsProvider(cfg.api.credentialsSecret),
    concurrency: share,
    log,
  });
  return api;
}

let planCredentials: (() => Promise<ClientCredentials>) | undefined;

/**
 * A client for one Plan invocation's credentials preflight (close it after): the same client and
 * token request as Export's, one request at a time; the secret's read is cached per container.
 */
export function preflightClient(cfg: Config): ReportingApi {
  planCredentials ??= createCredentialsProvider(cfg.api.credentialsSecret);
  return createApiClient({
    ...apiOptionsOf(cfg.api),
    http: createHttp,
    credentials: planCredentials,
    concurrency: 1,
    log,
  });
}
