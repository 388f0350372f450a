/**
 * The HTTP capability the API client needs, as the core sees it. The core never opens a connection
 * itself: the caller passes an `HttpFactory` (the undici adapter for the CLI and tests, Node's
 * built-in fetch in the Lambda bundles — both under `functions/adapters/`).
 */

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

/** What the client asks of its HTTP: a pool of `connections` per origin, per-phase timeouts in ms. */
export interface HttpPool {
  readonly connections: number;
  readonly timeoutMs: number;
}

export type HttpFactory = (pool: HttpPool) => Http;
