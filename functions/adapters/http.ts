/**
 * HTTP for the API client on the undici package (`#http` in tests, benchmarks and the CLI run from its
 * sources; the Lambda bundles resolve `#http` to `./http-fetch` through the `lambda` condition, the
 * CLI's bundle to `./http-node` through `cli`): the process's one undici Agent
 * with explicit connect/headers/body timeouts and a connection cap equal to the API concurrency.
 * Created lazily on first use (so importing this file opens nothing) and kept for the life of the
 * process.
 */
import { Agent, type Dispatcher, request } from 'undici';
import { declaredTooLarge, type Http, ResponseTooLarge } from '#core/api/http';
import { BodyBuffers } from './body-buffers';
import type { HttpOptions } from './http-types';

/** One request, the whole body read: what the client's transport needs. */
export function createHttp(options: HttpOptions): Http {
  const dispatcher = () =>
    options.dispatcher ?? getHttpAgent({ connections: options.connections, timeoutMs: options.timeoutMs });
  // bodies are read into buffers lent from this pool (./body-buffers)
  const buffers = new BodyBuffers(Math.max(1, options.connections));
  return {
    async send(req) {
      const res = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        dispatcher: dispatcher(),
        signal: req.signal,
      });
      // the body is read inside the caller's timeout: a stalled body is a timeout too
      const max = req.maxBytes;
      const length = res.headers['content-length'];
      const declared = Array.isArray(length) ? length[0] : length;
      if (declaredTooLarge(declared, max)) {
        res.body.destroy();
        throw new ResponseTooLarge(max ?? 0);
      }
      const body = buffers.body(declared);
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (!body.append(chunk, max)) {
          res.body.destroy();
          throw new ResponseTooLarge(max ?? 0);
        }
      }
      // Content-Encoding and charset are decoded by the core (#core/api/body), as for the fetch adapter
      return { status: res.statusCode, headers: res.headers, ...body.lend() };
    },
    async close() {
      if (options.dispatcher === undefined) await closeHttpAgent();
    },
  };
}

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
