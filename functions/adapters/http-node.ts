/**
 * HTTP for the CLI's bundle on Node's own `node:http` / `node:https` (`#http` under the `cli` import
 * condition, scripts/build-cli.mjs). Tests and benchmarks keep the undici adapter (`./http`), whose
 * dispatcher they can replace with a MockAgent; the Lambda bundles use Node's fetch (`./http-fetch`).
 *
 * Why not undici in the CLI: the undici package is ~0.5 MB of bundled JavaScript that every export
 * compiled and evaluated before its first request (~35–40 ms of CPU on Node 20), while `node:http` is
 * part of Node's snapshot (~5 ms) and costs the same per page (docs/performance.md, "Start"). Node's
 * fetch loads cheaply too but costs more per page (its WHATWG body stream: ~0.2 s more main-thread CPU
 * for a 300k-row export).
 *
 * Same surface as the undici adapter: bytes back, Content-Encoding and charset left to the core
 * (#core/api/body); keep-alive connections, at most `connections` per origin; the core's AbortSignal
 * bounds each attempt (connect, headers and body). Transport failures carry Node's codes
 * (ECONNRESET, ECONNREFUSED, …), which the core's classifier reads (#core/api/network); a body cut
 * short without one is reported as ECONNRESET, as undici reports it as a socket error.
 * Bodies are read into buffers lent from the adapter's pool (./body-buffers).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import {
  declaredTooLarge,
  type Http,
  type HttpAnswer,
  type HttpExchange,
  ResponseTooLarge,
} from '#core/api/http';
import { BodyBuffers } from './body-buffers';
import type { HttpOptions } from './http-types';

export function createHttp(options: HttpOptions): Http {
  if (options.dispatcher !== undefined) {
    throw new Error('the node:http adapter takes no dispatcher; use the undici adapter (#adapters/http)');
  }
  const agentOptions = { keepAlive: true, maxSockets: Math.max(1, options.connections) };
  let http: HttpAgent | undefined;
  let https: HttpsAgent | undefined;
  let buffers = new BodyBuffers(agentOptions.maxSockets);
  return {
    send(req) {
      const secure = req.url.startsWith('https:');
      if (secure) https ??= new HttpsAgent(agentOptions);
      else http ??= new HttpAgent(agentOptions);
      const agent = (secure ? https : http) as HttpAgent;
      return exchange(req, secure, agent, buffers);
    },
    async close() {
      http?.destroy();
      https?.destroy();
      http = undefined;
      https = undefined;
      buffers = new BodyBuffers(agentOptions.maxSockets);
    },
  };
}

function exchange(
  req: HttpExchange,
  secure: boolean,
  agent: HttpAgent,
  buffers: BodyBuffers,
): Promise<HttpAnswer> {
  return new Promise<HttpAnswer>((resolve, reject) => {
    const send = secure ? httpsRequest : httpRequest;
    const outgoing = send(
      req.url,
      { method: req.method, headers: req.headers, agent, signal: req.signal },
      (res) => {
        readBody(res, req.maxBytes, buffers).then(
          ({ body, release }) =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body, release }),
          (err: unknown) => {
            outgoing.destroy();
            reject(err);
          },
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

/**
 * The body's bytes in a lent buffer, counted as they arrive; gives up past `maxBytes` (or a larger
 * content-length). `release` gives the buffer back: the bytes must not be read after it.
 */
async function readBody(
  res: IncomingMessage,
  maxBytes: number | undefined,
  buffers: BodyBuffers,
): Promise<{ body: Buffer; release: () => void }> {
  const declared = res.headers['content-length'];
  if (declaredTooLarge(declared, maxBytes)) {
    res.destroy();
    throw new ResponseTooLarge(maxBytes ?? 0);
  }
  const body = buffers.body(declared);
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      if (!body.append(chunk, maxBytes)) {
        res.destroy();
        throw new ResponseTooLarge(maxBytes ?? 0);
      }
    }
  } catch (err: unknown) {
    throw err instanceof ResponseTooLarge || codeOf(err) !== undefined ? err : cutShort(err);
  }
  if (!res.complete) throw cutShort(undefined);
  return body.lend();
}

function codeOf(err: unknown): string | undefined {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code !== 'ERR_STREAM_PREMATURE_CLOSE' ? code : undefined;
}

function cutShort(cause: unknown): Error {
  return Object.assign(new Error('the connection closed before the whole body arrived', { cause }), {
    code: 'ECONNRESET',
  });
}
