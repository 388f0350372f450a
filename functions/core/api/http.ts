/**
 * The HTTP capability the API client needs, as the core sees it. The core never opens a connection
 * itself: the caller passes an `HttpFactory` (node:http in the CLI's bundle, the undici adapter for
 * tests, Node's built-in fetch in the Lambda bundles — all under `functions/adapters/`). Adapters
 * return bytes; the transport turns them into text through `./body`, the same for all.
 */

export interface HttpExchange {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal: AbortSignal;
  /** Stop reading and throw `ResponseTooLarge` once the body passes this many bytes. */
  readonly maxBytes?: number;
}

/** A response with its whole body read, as bytes: `./body` decodes them (one path for both adapters). */
export interface HttpAnswer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Uint8Array;
  /**
   * Whether the adapter already undid the Content-Encoding (Node's fetch always does, for gzip,
   * deflate and br); `./body` then only decodes the charset.
   */
  readonly decoded?: boolean;
  /**
   * Set when the adapter lent `body` from a pool of its own: the transport calls it once, after
   * `./body` has decoded the bytes (the text is a copy), and reads `body` no more; the adapter may
   * then fill the same memory with the next answer. Not called (an error before decoding), the
   * buffer is left to the garbage collector.
   */
  readonly release?: () => void;
}

export interface Http {
  send(req: HttpExchange): Promise<HttpAnswer>;
  close(): Promise<void>;
}

/** What the client asks of its HTTP: a pool of `connections` per origin, per-phase timeouts in ms. */
export interface HttpPool {
  readonly connections: number;
  readonly timeoutMs: number;
}

export type HttpFactory = (pool: HttpPool) => Http;

/**
 * Thrown by an `Http` when a body passes the exchange's `maxBytes`: counted while streaming (and
 * from `content-length` when the server sends one), so an oversized body is never held or parsed.
 */
export class ResponseTooLarge extends Error {
  readonly code = 'RESPONSE_TOO_LARGE';
  constructor(readonly limitBytes: number) {
    super(`the response body is larger than ${limitBytes} bytes`);
    this.name = 'ResponseTooLarge';
  }
}

/** Whether a `content-length` already says the body is too large. */
export function declaredTooLarge(contentLength: string | null | undefined, maxBytes?: number): boolean {
  return maxBytes !== undefined && contentLength != null && Number(contentLength) > maxBytes;
}
