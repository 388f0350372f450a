/**
 * The Reporting API v2 client (docs/api-client.md) over the HTTP capability its caller passes in
 * (`./http`: undici for the CLI and tests, Node's built-in fetch in the Lambda bundles). It wires the
 * small parts of this folder:
 * query (array formats, encoding), token (reuse, shared refresh), retry (policy, backoff, deadline),
 * errors (status → code and message), paginate (the paging loop), limiter (requests in flight).
 *
 * Secrets: the client secret travels only in the token POST body; the JWT only in the Authorization
 * header. Neither is ever part of a URL, message, detail or log field, and every text that came from
 * the server passes through a redactor that masks both before it is used.
 */
import { setTimeout as sleepTimer } from 'node:timers/promises';
import { ROUTE_SPECS } from '../config/routes';
import { ExporterError, isExporterError } from '../errors';
import { createLimiter } from '../limiter';
import { type Log, silentLog } from '../log';
import { dataRouteError, type HttpFailure, header, requestIdOf, tokenError } from './errors';
import type { HttpFactory } from './http';
import { parsePage } from './page';
import { paginate } from './paginate';
import { buildQuery, dataUrl, tokenUrl } from './query';
import { createRedactor, redactError, redactingLog } from './redact';
import {
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  RETRYABLE_STATUSES,
  RetryableFailure,
  type RetryContext,
  type RetryPolicy,
  withRetries,
} from './retry';
import {
  createTokenManager,
  parseToken,
  type TokenRequestFormat,
  tokenRequestBody,
  trimmedCredentials,
} from './token';
import { createTransport, type Received } from './transport';
import type { ApiEvents, ApiPage, ArrayFormat, PageOptions, ReportingApi, ReportRequest } from './types';

/** What one call adds to the client's settings: its abort signal, deadline and retry hook. */
type Call = Pick<PageOptions, 'signal' | 'deadlineMs' | 'onRetry' | 'runId'>;

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface ApiClientOptions {
  /** `https://reporting.example.com` (a path is kept; user:password in the URL is refused). */
  readonly baseUrl: string;
  /** Called whenever a token is needed; may cache (see adapters/credentials). */
  readonly credentials: () => Promise<ClientCredentials>;
  readonly arrayFormat?: ArrayFormat;
  /** Where a page carries its next cursor (a dotted path into the body). Default `nextCursor`. */
  readonly cursorPath?: string;
  /** How the token request carries the credentials: JSON (default) or an OAuth form body. */
  readonly tokenRequest?: TokenRequestFormat;
  /** `limit` on list routes. Default 500. */
  readonly pageSize?: number;
  /** Requests in flight at once across everything using this client. Default 4. */
  readonly concurrency?: number;
  /** Per-request timeout (headers and body together). Default 30 s. */
  readonly timeoutMs?: number;
  /** Default 5. */
  readonly maxRetries?: number;
  /** Backoff tuning beyond maxRetries (tests shorten it). */
  readonly retryPolicy?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /** Opens the client's HTTP (`#http`'s `createHttp`, or one around a test's dispatcher). */
  readonly http: HttpFactory;
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random?: () => number;
  readonly events?: ApiEvents;
  readonly log?: Log;
  /** The largest response body read (bytes). Default 32 MiB (`DEFAULT_MAX_RESPONSE_BYTES`). */
  readonly maxResponseBytes?: number;
}

/**
 * A response cap that keeps the Export Lambda (1,024 MB) clear of out-of-memory: the export holds up
 * to 5 pages per report (one being written, 4 read ahead), each parsed to about 1–3× its text.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

const MIN_ATTEMPT_MS = 1000;
const USER_AGENT = 'report-exporter/0.1';
/** Asked of the server by both adapters alike (fetch would add its own otherwise); ./body decodes them. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Creates a client; nothing is sent until the first page is asked for. */
export function createApiClient(options: ApiClientOptions): ReportingApi {
  const base = new URL(options.baseUrl);
  if (base.username !== '' || base.password !== '') {
    throw new ExporterError('CONFIG_INVALID', 'api.baseUrl must not carry a user name or password');
  }
  const redactor = createRedactor();
  const log = redactingLog(options.log ?? silentLog, redactor);
  const events = options.events ?? {};
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const concurrency = options.concurrency ?? 4;
  const arrayFormat = options.arrayFormat ?? 'repeat';
  const pageSize = options.pageSize ?? 500;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const http = options.http({ connections: concurrency, timeoutMs: Math.max(timeoutMs, 1) });
  // near the call's deadline an attempt gets only the time that is left (but at least a second to try)
  const send = createTransport({
    http,
    limiter: createLimiter(concurrency),
    timeoutMs: (req) => {
      const left = req.deadlineMs?.();
      return left === undefined ? timeoutMs : Math.min(timeoutMs, Math.max(MIN_ATTEMPT_MS, left));
    },
  });

  const retryContext = (route: string, call: Call): RetryContext => ({
    policy: { ...DEFAULT_RETRY_POLICY, ...options.retryPolicy, maxRetries: options.maxRetries ?? 5 },
    sleep: options.sleep ?? ((ms, s) => sleepTimer(ms, undefined, { signal: s })),
    random: options.random ?? Math.random,
    ...(call.deadlineMs ? { deadlineMs: call.deadlineMs } : {}),
    ...(call.signal ? { signal: call.signal } : {}),
    onRetry: ({ attempt, delayMs, failure }) => {
      const info = { route, status: failure.status, attempt, delayMs, reason: failure.reason };
      log.warn('retrying API request', info);
      events.onRetry?.(info);
      call.onRetry?.(info);
    },
  });

  /** What a failed response may contribute to an error: redacted, never the request's headers. */
  const failureOf = (method: 'GET' | 'POST', path: string, res: Received): HttpFailure => {
    const requestId = requestIdOf(res.headers);
    return {
      method,
      path,
      status: res.status,
      headers: requestId ? { 'x-request-id': redactor.text(requestId) } : {},
      body: redactor.text(res.text),
    };
  };

  const retryableOr = (res: Received, final: (a: number, o: boolean) => Error) => {
    if (!RETRYABLE_STATUSES.has(res.status)) return final(1, false);
    const retryAfter = parseRetryAfter(header(res.headers, 'retry-after'), now());
    return new RetryableFailure(final, res.status, `HTTP ${res.status}`, retryAfter);
  };

  // a token request runs under the deadline and retry hook of the call that needed it, not its signal
  // (concurrent calls share the request)
  const fetchToken = (call: Call = {}) =>
    withRetries(retryContext('oauth/token', { ...call, signal: undefined }), async () => {
      const given = await options.credentials();
      // remembered as given (and so trimmed, CR/LF-stripped …) before anything can fail or echo it
      redactor.add(given.clientSecret, true);
      const creds = trimmedCredentials(given);
      const res = await send({
        method: 'POST',
        url: tokenUrl(options.baseUrl),
        path: '/oauth/token',
        maxBytes,
        ...(call.deadlineMs ? { deadlineMs: call.deadlineMs } : {}),
        ...tokenRequestBody(creds, options.tokenRequest ?? 'json', {
          accept: 'application/json',
          'accept-encoding': ACCEPT_ENCODING,
          'user-agent': USER_AGENT,
        }),
      });
      if (res.status >= 200 && res.status < 300) {
        const jwt = parseToken(res.text);
        redactor.add(jwt);
        log.debug('obtained an API token', { route: 'oauth/token' });
        return jwt;
      }
      const failure = failureOf('POST', '/oauth/token', res);
      throw retryableOr(res, (a, o) => tokenError(failure, a, o));
    });
  // a token 401/403 ends token requests for the run (the call's runId; a CLI process when absent):
  // every report fails with the same message after one request
  const tokens = createTokenManager<Call>({
    fetchToken,
    now,
    isFinal: (err) => isExporterError(err, 'AUTH_REJECTED') || isExporterError(err, 'AUTH_FORBIDDEN'),
    scopeOf: (call) => call?.runId,
  });

  const fetchPage = async (request: ReportRequest, cursor: string | null, call: Call) => {
    const path = ROUTE_SPECS[request.route].path;
    const url = dataUrl(
      options.baseUrl,
      request.route,
      buildQuery(request, { arrayFormat, pageSize, cursor }),
    );
    const sent = { instanceIds: request.filters.instanceIds ?? [], metrics: request.metrics ?? [] };
    return withRetries(retryContext(request.route, call), async () => {
      const get = (jwt: string) => {
        return send({
          method: 'GET',
          url,
          path,
          maxBytes,
          headers: {
            authorization: `Bearer ${jwt}`,
            accept: 'application/json',
            'accept-encoding': ACCEPT_ENCODING,
            'user-agent': USER_AGENT,
          },
          ...(call.signal ? { signal: call.signal } : {}),
          ...(call.deadlineMs ? { deadlineMs: call.deadlineMs } : {}),
        });
      };
      const jwt = await tokens.get(call);
      let res = await get(jwt);
      if (res.status === 401) {
        // exactly one re-authentication and one retry of this request (docs/api-assumptions.md)
        events.onReauth?.({ route: request.route });
        log.info('data route answered 401; re-authenticating once', { route: request.route });
        res = await get(await tokens.refresh(jwt, call));
        if (res.status === 401) {
          const e = dataRouteError(failureOf('GET', path, res), sent);
          throw new ExporterError('API_UNAUTHORIZED', `${e.message} — even after re-authenticating once`, {
            details: e.details,
          });
        }
      }
      if (res.status >= 200 && res.status < 300) {
        const page = parsePage(
          { ...res, contentType: header(res.headers, 'content-type') ?? '' },
          `GET ${path}`,
          options.cursorPath,
        );
        // the server's words leave the client only redacted
        return page.serverPartial ? { ...page, serverPartial: redactor.value(page.serverPartial) } : page;
      }
      const failure = failureOf('GET', path, res);
      throw retryableOr(res, (a, o) => dataRouteError(failure, sent, a, o));
    });
  };

  return {
    async *pages(request: ReportRequest, pageOptions: PageOptions = {}): AsyncGenerator<ApiPage> {
      const pagesOfRequest = paginate({
        label: `GET ${ROUTE_SPECS[request.route].path}`,
        startCursor: pageOptions.cursor ?? null,
        fetchPage: (cursor) => fetchPage(request, cursor, pageOptions),
      });
      try {
        yield* pagesOfRequest;
      } catch (err: unknown) {
        // whatever an error carries leaves the client only once every known secret is masked
        throw redactError(redactor, err);
      }
    },
    redact: (value) => redactor.value(value),
    async ready() {
      const given = await options.credentials();
      redactor.add(given.clientSecret, true);
      // an id or secret that is only whitespace is named here, before any report, not once per report
      trimmedCredentials(given);
    },
    async authenticate(call = {}) {
      try {
        await tokens.get(call);
      } catch (err: unknown) {
        throw redactError(redactor, err);
      }
    },
    async close() {
      await http.close();
    },
  };
}
