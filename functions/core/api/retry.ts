/**
 * The retry policy (docs/api-assumptions.md, "retries"): 429 honours `Retry-After` (seconds or HTTP date, capped);
 * otherwise — and for 500/502/503/504, resets and timeouts — exponential backoff with full jitter,
 * capped. Nothing else is retried. A retry never sleeps past the caller's deadline (the Lambda's
 * remaining time): when the wait would not fit, the last failure is raised at once.
 *
 *   attempt 0 ─fail─► wait d(0) ─► attempt 1 ─fail─► wait d(1) ─► … ─► attempt maxRetries ─fail─► give up
 *   d(n) = Retry-After (≤ retryAfterCapMs) if the server sent one, else random() × min(capMs, baseMs × 2ⁿ)
 */

import { ExporterError } from '../errors';

export interface RetryPolicy {
  /** Retries after the first attempt (so at most maxRetries + 1 attempts). Default 5. */
  readonly maxRetries: number;
  /** Backoff base. Default 500 ms. */
  readonly baseMs: number;
  /** Backoff cap. Default 20 s. */
  readonly capMs: number;
  /** The longest `Retry-After` honoured; longer values wait this long. Default 60 s. */
  readonly retryAfterCapMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 5,
  baseMs: 500,
  capMs: 20_000,
  retryAfterCapMs: 60_000,
};

/** Statuses retried with backoff; 400/401/403/404 and all other statuses are final. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** Full jitter: a uniform wait in [0, min(cap, base × 2^retry)). */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(retry, 30));
  return Math.floor(random() * ceiling);
}

/**
 * A `Retry-After` value in milliseconds from `nowMs`: delta-seconds or an HTTP date; null when absent
 * or unparseable. A date in the past means "now" (0).
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** A failure the loop may retry: what to wait (if the server said) and the error to raise at the end. */
export class RetryableFailure extends Error {
  constructor(
    /** Builds the final error, told how many attempts were made and whether the deadline cut them short. */
    readonly finalError: (attempts: number, outOfTime: boolean) => Error,
    readonly status: number | null,
    readonly reason: string,
    /** The server's `Retry-After`, in ms, when it sent one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(reason);
    this.name = 'RetryableFailure';
  }
}

export interface RetryContext {
  readonly policy: RetryPolicy;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random: () => number;
  /** Milliseconds left before the caller must stop; absent = no limit. */
  readonly deadlineMs?: () => number;
  readonly signal?: AbortSignal;
  readonly onRetry?: (info: { attempt: number; delayMs: number; failure: RetryableFailure }) => void;
}

/**
 * Runs `attempt` until it resolves or throws something that is not a RetryableFailure; a
 * RetryableFailure is retried per the policy and, once retries or time run out, replaced by its
 * final error.
 */
export async function withRetries<T>(ctx: RetryContext, attempt: (n: number) => Promise<T>): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (err: unknown) {
      if (!(err instanceof RetryableFailure)) throw err;
      if (n >= ctx.policy.maxRetries) throw err.finalError(n + 1, false);
      const delayMs =
        err.retryAfterMs !== null
          ? Math.min(err.retryAfterMs, ctx.policy.retryAfterCapMs)
          : backoffDelay(n, ctx.policy, ctx.random);
      const left = ctx.deadlineMs?.();
      if (left !== undefined && delayMs >= left) throw outOfTime(err.finalError(n + 1, true));
      ctx.onRetry?.({ attempt: n + 1, delayMs, failure: err });
      await ctx.sleep(delayMs, ctx.signal);
    }
  }
}

/**
 * Marks an error raised because the next wait would pass the deadline (`details.outOfTime`): the
 * export step then ends with a checkpoint instead of failing the report, when it knows the cursor.
 */
function outOfTime(err: Error): Error {
  if (!(err instanceof ExporterError)) return err;
  return new ExporterError(err.code, err.message, {
    retryable: err.retryable,
    details: { ...err.details, outOfTime: true },
  });
}

/** Whether `err` ended retries because the next wait would have passed the deadline. */
export function isOutOfTime(err: unknown): boolean {
  return err instanceof ExporterError && err.details.outOfTime === true;
}
