/**
 * The HTTP surface the API client's transport uses, implemented twice: on the undici package
 * (`./http`: CLI, tests, benchmarks) and on Node's built-in fetch (`./http-fetch`: the Lambda
 * bundles, which then carry no HTTP library). `#http` picks one by import condition.
 */
import type { Dispatcher } from 'undici';

export interface HttpOptions {
  /** Connections per origin where the implementation has a pool of its own (`api.concurrency`). */
  readonly connections: number;
  /** Per-phase timeouts of the pool, ms (the transport also bounds each attempt as a whole). */
  readonly timeoutMs: number;
  /** undici only: a dispatcher of the caller's (a MockAgent in tests); not closed by close(). */
  readonly dispatcher?: Dispatcher;
}

export interface HttpExchange {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal: AbortSignal;
}

export interface HttpAnswer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

export interface Http {
  send(req: HttpExchange): Promise<HttpAnswer>;
  close(): Promise<void>;
}
