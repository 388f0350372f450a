/**
 * One HTTP attempt: takes a slot of the client's limiter, sends through `#http` under a total per-request
 * timeout (headers and body), reads the whole body, and turns transport failures (resets, timeouts)
 * into a RetryableFailure. Statuses are left to the caller. A caller's own abort is passed through
 * untouched and never retried.
 */
import { ExporterError } from '../errors';
import type { Limiter } from '../limiter';
import { ContentDecodingFailed, type DecodedBody, decodeBody } from './body';
import { type Http, type HttpAnswer, ResponseTooLarge } from './http';
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
  /** The largest body accepted (bytes); a larger one is API_BAD_RESPONSE, never read whole. */
  readonly maxBytes?: number;
  /** Milliseconds the caller may still use; the client shortens the attempt to it. */
  readonly deadlineMs?: () => number;
}

/** A response with its whole body read and decoded (`./body`). */
export interface Received {
  readonly status: number;
  readonly headers: HttpAnswer['headers'];
  readonly text: string;
  /** Invalid byte sequences of the body, each decoded as U+FFFD. */
  readonly invalidSequences: number;
  /** Compressed bytes that came without a Content-Encoding (named when the body is not JSON). */
  readonly unlabelledCompression?: DecodedBody['unlabelledCompression'];
}

export interface TransportOptions {
  readonly http: Http;
  readonly limiter: Limiter;
  /** The timeout of `req`'s attempt starting now (the client shortens it near the call's deadline). */
  readonly timeoutMs: (req: SentRequest) => number;
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
      const timeoutMs = options.timeoutMs(req);
      const timer = setTimeout(() => controller.abort(new RequestTimeout(timeoutMs)), timeoutMs);
      const onAbort = () => controller.abort(req.signal?.reason);
      req.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        req.signal?.throwIfAborted();
        const answer = await options.http.send({
          method: req.method,
          url: req.url,
          headers: req.headers,
          ...(req.body !== undefined ? { body: req.body } : {}),
          ...(req.maxBytes !== undefined ? { maxBytes: req.maxBytes } : {}),
          signal: controller.signal,
        });
        return received(req, answer);
      } catch (err: unknown) {
        if (req.signal?.aborted) throw err;
        if (err instanceof ResponseTooLarge) throw tooLarge(req, err.limitBytes);
        if (err instanceof ContentDecodingFailed) throw undecodable(req, err.problem);
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

/**
 * The answer decoded (one path for every adapter). A failed status whose body cannot be decoded keeps
 * its status, with the problem as its text: the status says more than the body could.
 */
function received(req: SentRequest, answer: HttpAnswer): Received {
  try {
    const body = decodeBody(answer, req.maxBytes);
    return {
      status: answer.status,
      headers: answer.headers,
      text: body.text,
      invalidSequences: body.invalidSequences,
      ...(body.unlabelledCompression ? { unlabelledCompression: body.unlabelledCompression } : {}),
    };
  } catch (err: unknown) {
    if (!(err instanceof ContentDecodingFailed) || (answer.status >= 200 && answer.status < 300)) throw err;
    return { status: answer.status, headers: answer.headers, text: `(${err.problem})`, invalidSequences: 0 };
  } finally {
    answer.release?.();
  }
}

/** A body its own headers do not describe: not retried (the server would send it again). */
function undecodable(req: SentRequest, problem: string): ExporterError {
  return new ExporterError('API_BAD_RESPONSE', `${req.method} ${req.path}: ${problem}`, {
    retryable: false,
    details: { route: req.path, status: null },
  });
}

/** A body over the cap: not retried (the server would send it again), and says what to change. */
function tooLarge(req: SentRequest, limitBytes: number): ExporterError {
  const mib = Math.round((limitBytes / 1024 / 1024) * 10) / 10;
  return new ExporterError(
    'API_BAD_RESPONSE',
    `${req.method} ${req.path}: the response is larger than ${mib} MiB (api.maxResponseMiB), so it was not read; the server may be ignoring the page size (limit) — lower api.pageSize, or raise api.maxResponseMiB if its pages really are this large (the Export Lambda has 1,024 MB)`,
    { retryable: false, details: { route: req.path, status: null, limitBytes } },
  );
}
