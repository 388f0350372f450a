/**
 * HTTP for the API client on Node's built-in fetch (itself undici inside Node), used by the Lambda
 * bundles: `#http` resolves here under the `lambda` import condition, so the bundles do not carry
 * the undici package (≈ 536 KB minified, a third of the Export bundle's cold start). Node's global
 * dispatcher keeps connections alive; the client's limiter bounds requests in flight, and so the
 * connections in use, to `api.concurrency`; the transport's AbortSignal bounds each attempt.
 * Transport failures arrive as `TypeError: fetch failed` (or `terminated` mid-body) with undici's
 * coded error as `cause`, which the client's classifier reads.
 */
import { ContentDecodingFailed, codingsOf, FETCH_DECODED_CODINGS } from '#core/api/body';
import { declaredTooLarge, type Http, ResponseTooLarge } from '#core/api/http';
import { BodyBuffers } from './body-buffers';
import type { HttpOptions } from './http-types';

export function createHttp(options: HttpOptions): Http {
  if (options.dispatcher !== undefined) {
    throw new Error(
      'the fetch-based HTTP adapter takes no dispatcher; use the undici adapter (#adapters/http)',
    );
  }
  // bodies are read into buffers lent from this pool (./body-buffers)
  const buffers = new BodyBuffers(Math.max(1, options.connections));
  return {
    async send(req) {
      const res = await fetch(req.url, {
        method: req.method,
        headers: req.headers,
        ...(req.body !== undefined ? { body: req.body } : {}),
        signal: req.signal,
        redirect: 'manual',
      });
      const { body, release } = await readBytes(res, req.maxBytes, buffers);
      const headers: Record<string, string> = Object.create(null);
      res.headers.forEach((value, name) => {
        headers[name] = value;
      });
      // fetch undoes gzip, deflate and br itself (all of them, or none when one coding is unknown);
      // the charset, and any other coding, are decoded by the core (#core/api/body) as for undici
      const codings = codingsOf(headers['content-encoding'] ?? '');
      const decoded = codings.length > 0 && codings.every((c) => FETCH_DECODED_CODINGS.has(c));
      return { status: res.status, headers, body, decoded, release };
    },
    async close() {},
  };
}

/**
 * The body's bytes, counting them as they arrive (after fetch's decompression, so the cap bounds the
 * decoded size, as the core's decompression does for undici) and giving up past `maxBytes`.
 */
async function readBytes(
  res: Response,
  maxBytes: number | undefined,
  buffers: BodyBuffers,
): Promise<{ body: Uint8Array; release?: () => void }> {
  if (res.body === null) return { body: new Uint8Array() };
  const declared = res.headers.get('content-length');
  if (declaredTooLarge(declared, maxBytes)) {
    await res.body.cancel().catch(() => undefined);
    throw new ResponseTooLarge(maxBytes ?? 0);
  }
  const reader = res.body.getReader();
  const body = buffers.body(declared);
  const coding = res.headers.get('content-encoding');
  for (;;) {
    const { done, value } = await read(reader, coding);
    if (done) break;
    if (!body.append(value, maxBytes)) {
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLarge(maxBytes ?? 0);
    }
  }
  return body.lend();
}

/** One chunk; a zlib failure inside fetch's decompression is the core's ContentDecodingFailed. */
async function read(reader: ReadableStreamDefaultReader<Uint8Array>, coding: string | null) {
  try {
    return await reader.read();
  } catch (err: unknown) {
    if (coding !== null && isZlibError(err)) {
      const name = coding.trim().toLowerCase();
      throw new ContentDecodingFailed(
        `the body is not valid ${name} data although its Content-Encoding says ${name}`,
      );
    }
    throw err;
  }
}

function isZlibError(err: unknown): boolean {
  for (let e: unknown = err, i = 0; i < 5 && e instanceof Error; i++, e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^(Z_|ERR_BROTLI|ERR_ZLIB)/.test(code)) return true;
  }
  return false;
}
