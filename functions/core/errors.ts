/**
 * Every error the product raises on purpose. Callers branch on `code`, never on message text.
 * Messages are secret-free by construction: they name routes, statuses and ids, never headers,
 * tokens or credentials.
 */
export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_NOT_FOUND'
  | 'USAGE'
  | 'CREDENTIALS_MISSING' // no secret id, or the secret does not exist
  | 'CREDENTIALS_DENIED' // the secret (or its KMS key) may not be read by this role / user
  | 'CREDENTIALS_UNAVAILABLE' // Secrets Manager throttled, failed or was unreachable (may be retryable)
  | 'CREDENTIALS_INVALID' // the secret exists but is not {"clientId","clientSecret"}
  | 'AUTH_REJECTED' // token endpoint 401: check the secret
  | 'AUTH_FORBIDDEN' // token endpoint 403: client not permitted; retrying will not help
  | 'AUTH_FAILED' // token endpoint answered something else
  | 'API_BAD_REQUEST' // 400 on a data route (e.g. invalid metrics)
  | 'API_UNAUTHORIZED' // 401 on a data route even after one re-authentication
  | 'API_FORBIDDEN' // 403 on a data route (instance outside the client's set)
  | 'API_NOT_FOUND'
  | 'API_RATE_LIMITED' // 429, retries exhausted
  | 'API_SERVER_ERROR' // 5xx, retries exhausted
  | 'API_NETWORK' // reset / timeout, retries exhausted
  | 'API_BAD_RESPONSE' // body not the shape we expect
  | 'API_CURSOR_LOOP' // the server sent back a cursor it already sent, or only pages already exported
  | 'API_PAGE_LIMIT' // a report passed api.maxPages pages
  | 'API_PARTIAL' // a page said its results are partial, and api.serverPartial is fail
  | 'SCHEMA_DRIFT'
  | 'MODEL_UNREADABLE' // the report's stored column model cannot be read or extended
  | 'WRITE_FAILED'
  | 'WINDOW_BUSY' // another run holds the window's lease (waited the allowed time)
  | 'LEASE_LOST' // this run's lease on its window expired and another run took it over
  | 'ENCODE_FAILED' // the Parquet/CSV encoder (worker) failed or died, e.g. at its heap limit
  | 'EMAIL_FAILED'
  | 'STATE_TOO_LARGE' // a checkpoint or result would not fit a Step Functions payload
  | 'INTERNAL';

export interface ExporterErrorOptions {
  readonly retryable?: boolean;
  readonly cause?: unknown;
  /** Structured, secret-free facts about the failure (route, status, instanceIds, validMetrics …). */
  readonly details?: Readonly<Record<string, unknown>>;
}

export class ExporterError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: ExporterErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ExporterError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }
}

export function isExporterError(err: unknown, code?: ErrorCode): err is ExporterError {
  return err instanceof ExporterError && (code === undefined || err.code === code);
}

/** A short, secret-free description of any thrown value, for logs and manifests. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
