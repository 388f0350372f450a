/**
 * HTTP for the API client on Node's built-in fetch (itself undici inside Node), used by the Lambda
 * bundles: `#http` resolves here under the `lambda` import condition, so the bundles do not carry
 * the undici package (≈ 536 KB minified, a third of the Export bundle's cold start). Node's global
 * dispatcher keeps connections alive; the client's limiter bounds requests in flight, and so the
 * connections in use, to `api.concurrency`; the transport's AbortSignal bounds each attempt.
 * Transport failures arrive as `TypeError: fetch failed` (or `terminated` mid-body) with undici's
 * coded error as `cause`, which the client's classifier reads.
 */
import type { Http } from '#core/api/http';
import type { HttpOptions } from './http-types';

export function createHttp(options: HttpOptions): Http {
  if (options.dispatcher !== undefined) {
    throw new Error(
      'the fetch-based HTTP adapter takes no dispatcher; use the undici adapter (#adapters/http)',
    );
  }
  return {
    async send(req) {
      const res = await fetch(req.url, {
        method: req.method,
        headers: req.headers,
        ...(req.body !== undefined ? { body: req.body } : {}),
        signal: req.signal,
        redirect: 'manual',
      });
      const text = await res.text();
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return { status: res.status, headers, text };
    },
    async close() {},
  };
}
