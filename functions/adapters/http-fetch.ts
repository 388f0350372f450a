/**
 * HTTP for the API client on Node's built-in fetch (itself undici inside Node), used by the Lambda
 * bundles: `#http` resolves here under the `lambda` import condition, so the bundles do not carry
 * the undici package (≈ 536 KB minified, a third of the Export bundle's cold start). Node's global
 * dispatcher keeps connections alive; the client's limiter bounds requests in flight, and so the
 * connections in use, to `api.concurrency`; the transport's AbortSignal bounds each attempt.
 * Transport failures arrive as `TypeError: fetch failed` (or `terminated` mid-body) with undici's
 * coded error as `cause`, which the client's classifier reads.
 */
import { declaredTooLarge, type Http, ResponseTooLarge } from '#core/api/http';
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
      const text = await readText(res, req.maxBytes);
      const headers: Record<string, string> = Object.create(null);
      res.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return { status: res.status, headers, text };
    },
    async close() {},
  };
}

/** The body as text, counting bytes as they arrive and giving up past `maxBytes`. */
async function readText(res: Response, maxBytes: number | undefined): Promise<string> {
  if (maxBytes === undefined || res.body === null) return res.text();
  if (declaredTooLarge(res.headers.get('content-length'), maxBytes)) {
    await res.body.cancel().catch(() => undefined);
    throw new ResponseTooLarge(maxBytes);
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, bytes).toString('utf8');
}
