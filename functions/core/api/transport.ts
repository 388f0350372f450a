/**
 * One HTTP attempt: takes a slot of the client's limiter, sends with undici under a total per-request
 * timeout (headers and body), reads the whole body, and turns transport failures (resets, timeouts)
 * into a RetryableFailure. Statuses are left to the caller. A caller's own abort is passed through
 * untouched and never retried.
 */
import { type Dispatcher, request } from 'undici';
import type { Limiter } from './limiter';
import { networkError, networkFailureKind } from './network';
import { RetryableFailure } from './retry';

export interface SentRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  /** The path shown in messages (`/v2/posts/performance`): never the URL, which carries the query. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
}

export interface Received {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

export interface TransportOptions {
  readonly dispatcher: () => Dispatcher;
  readonly limiter: Limiter;
  /** The timeout of an attempt starting now (the client shortens it near its deadline). */
  readonly timeoutMs: () => number;
}

class RequestTimeout extends Error {
  readonly code = 'UND_ERR_REQUEST_TIMEOUT';
  constructor(ms: number) {
    super(`no complete response within ${ms} ms`);
    this.name = 'RequestTimeout';
  }
}

export type Transport = (req: SentRequest) => Promise<Received>;

export function createTransport(options: TransportOptions): Transport {
  return (req) =>
    options.limiter.run(async () => {
      const controller = new AbortController();
      const timeoutMs = options.timeoutMs();
      const timer = setTimeout(() => controller.abort(new RequestTimeout(timeoutMs)), timeoutMs);
      const onAbort = () => controller.abort(req.signal?.reason);
      req.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        req.signal?.throwIfAborted();
        const res = await request(req.url, {
          method: req.method,
          headers: req.headers,
          body: req.body,
          dispatcher: options.dispatcher(),
          signal: controller.signal,
        });
        // the body is read inside the same timeout: a stalled body is a timeout too
        const text = await res.body.text();
        return { status: res.statusCode, headers: res.headers, text };
      } catch (err: unknown) {
        if (req.signal?.aborted) throw err;
        const kind = controller.signal.aborted ? 'timeout' : networkFailureKind(err);
        if (kind === null) throw err;
        const cause = controller.signal.aborted ? controller.signal.reason : err;
        throw new RetryableFailure(
          (attempts, outOfTime) => networkError(req.method, req.path, kind, attempts, cause, outOfTime),
          null,
          kind,
        );
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      }
    });
}
