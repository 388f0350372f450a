/**
 * What the export pipeline needs from the Reporting API v2: pages of raw rows for one report request.
 * Implemented by `createApiClient` in `./client`, over the HTTP its caller passes in.
 */

import type { Route } from '../config/routes';
import type { ServerPartial } from './partial';

/** How array query parameters are written: `a=1&a=2`, `a=1,2` or `a[]=1&a[]=2` (`api.arrayFormat`). */
export type ArrayFormat = 'repeat' | 'comma' | 'brackets';

/** A row as the API sends it: identifying fields plus a nested `metrics` object. Untrusted. */
export type ApiRow = Readonly<Record<string, unknown>>;

export interface ApiPage {
  readonly rows: readonly ApiRow[];
  /** The cursor to fetch the page after this one; null on the last page. */
  readonly nextCursor: string | null;
  /** 0-based index of this page within the request (counting from the cursor it was resumed at). */
  readonly index: number;
  /**
   * On a page without a cursor where the exporter reads it (`api.cursorPath`): another place in the
   * answer holding a cursor-like value (e.g. `meta.nextCursor`), which the silent-loss guard names.
   */
  readonly cursorElsewhere?: string;
  /**
   * How many byte sequences of this page's body were not valid in its charset and were decoded as
   * U+FFFD (./body; absent when none). The export turns it into a report warning naming the column
   * the replaced text landed in.
   */
  readonly invalidSequences?: number;
  /**
   * The page said its results are partial (`errors`, `warnings`, `partial: true` … at the top level
   * or under `meta`; ./partial): the report warning SERVER_PARTIAL, or a failure with
   * `api.serverPartial: fail`. Absent when it said nothing of the kind.
   */
  readonly serverPartial?: ServerPartial;
}

export interface ReportRequest {
  readonly route: Route;
  readonly metrics?: readonly string[];
  /** Inclusive window dates, YYYY-MM-DD. Ignored on `instances` and `campaigns`. */
  readonly startDate: string;
  readonly endDate: string;
  readonly filters: {
    readonly platform?: string;
    readonly contentType?: string;
    readonly dateBasis?: string;
    readonly instanceIds?: readonly string[];
    readonly campaignIds?: readonly string[];
  };
  readonly params?: Readonly<Record<string, string | number | boolean>>;
}

export interface PageOptions {
  /** Resume at this cursor (from an earlier, interrupted export); null/undefined = first page. */
  readonly cursor?: string | null;
  readonly signal?: AbortSignal;
  /**
   * Milliseconds this call may still use (e.g. the Lambda invocation's remaining time, less a
   * reserve): attempts are shortened and retry waits never pass it. Absent = no limit. Per call, so
   * a client shared across invocations never carries one invocation's clock into the next.
   */
  readonly deadlineMs?: () => number;
  /** Called for each retry this call makes (its token requests included), beside `ApiEvents.onRetry`. */
  readonly onRetry?: (info: RetryInfo) => void;
  /**
   * The run this call belongs to. A token route that refuses the credentials (401/403) is not asked
   * again for the same run: its other reports fail with the same error. Absent = the client's
   * lifetime is the run (a CLI process).
   */
  readonly runId?: string;
}

/** One retry, as the hooks see it: secret-free. */
export interface RetryInfo {
  readonly route: string;
  readonly status: number | null;
  readonly attempt: number;
  readonly delayMs: number;
  readonly reason: string;
}

/** Observability hooks of the whole client; all optional, all secret-free. */
export interface ApiEvents {
  onRetry?(info: RetryInfo): void;
  onReauth?(info: { route: string }): void;
}

export interface ReportingApi {
  /** The pages of one report, in order, with back-pressure: the next page is fetched when asked for. */
  pages(request: ReportRequest, options?: PageOptions): AsyncIterable<ApiPage>;
  /** Releases sockets. */
  close(): Promise<void>;
  /**
   * Resolves the credentials once (the local override or the secret) without asking the API: a
   * preflight that fails with CREDENTIALS_* before any report starts. Absent on test doubles.
   */
  ready?(): Promise<void>;
  /**
   * Asks the token route for a token and drops it (the deployed Plan's credentials preflight: one
   * token request per run, whatever the number of Export containers). Rejects with the token route's
   * error, redacted (AUTH_REJECTED, AUTH_FORBIDDEN, AUTH_FAILED …), or CREDENTIALS_* when the
   * credentials cannot be read. Uses the call's deadline and retry hook. Absent on test doubles.
   */
  authenticate?(options?: Pick<PageOptions, 'deadlineMs' | 'onRetry' | 'runId'>): Promise<void>;
  /**
   * A copy of `value` with every secret this client knows (client secret, tokens, their segments, in
   * every encoding) masked: for text that came from the API and leaves the process another way than
   * an error (the summary's top rows). Absent on test doubles that hold no secrets.
   */
  redact?<T>(value: T): T;
}
