/**
 * The process's one undici Agent for the Reporting API: explicit connect/headers/body timeouts and a
 * connection cap equal to the API concurrency. Created lazily on first use (so importing this file
 * opens nothing) and kept for the life of the process — a warm Lambda reuses its sockets.
 */
import { Agent, type Dispatcher } from 'undici';

export interface HttpAgentOptions {
  /** Connections per origin; matches `api.concurrency` so no request queues inside undici. */
  readonly connections: number;
  /** Headers and body timeouts (each phase), ms. */
  readonly timeoutMs: number;
  /** TCP + TLS connect timeout, ms. Default min(10 s, timeoutMs). */
  readonly connectTimeoutMs?: number;
}

let agent: Agent | null = null;

/**
 * The shared Agent, created with `options` on the first call; later calls return the same Agent
 * (their options are ignored — one process talks to one API with one configuration).
 */
export function getHttpAgent(options: HttpAgentOptions): Dispatcher {
  if (agent === null) {
    agent = new Agent({
      connections: options.connections,
      connect: { timeout: options.connectTimeoutMs ?? Math.min(10_000, options.timeoutMs) },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
    });
  }
  return agent;
}

/** Closes the shared Agent (waits for requests in flight); the next `getHttpAgent` makes a new one. */
export async function closeHttpAgent(): Promise<void> {
  const current = agent;
  agent = null;
  if (current !== null) await current.close();
}
