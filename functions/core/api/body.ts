/**
 * The one place a response body's bytes become text, for both HTTP adapters (undici in the CLI,
 * Node's fetch in the Lambda bundles), so the CLI and the deployment read every answer alike:
 *
 * 1. Content-Encoding (`gzip`, `x-gzip`, `deflate` — zlib or raw —, `br`, `identity`; several are
 *    undone last first) within the decompression bound: the decoded body may not pass `maxBytes`
 *    either (a small gzip bomb is a ResponseTooLarge like a large body). Codings the adapter already
 *    undid (fetch always does) are skipped (`HttpAnswer.decoded`).
 * 2. The charset: a byte order mark wins (UTF-8, UTF-16LE/BE), then `charset=` of Content-Type
 *    (any WHATWG label: `iso-8859-1`, `windows-1252`, `utf-16` …), then JSON's own rule (RFC 8259:
 *    UTF-8; UTF-16 recognised by its zero bytes, RFC 4627 §3).
 * 3. Decoding with replacement: an invalid sequence becomes U+FFFD and is counted
 *    (`invalidSequences`), a U+FFFD the server really sent is not.
 */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { type HttpAnswer, ResponseTooLarge } from './http';

export interface DecodedBody {
  readonly text: string;
  /** Byte sequences that were not valid in the body's charset, each decoded as U+FFFD. */
  readonly invalidSequences: number;
  /** The charset the body was decoded with (WHATWG name, e.g. `utf-8`, `windows-1252`). */
  readonly charset: string;
  /** Set when the bytes are compressed but the answer had no Content-Encoding saying so. */
  readonly unlabelledCompression?: 'gzip' | 'zlib';
}

/** A body that its Content-Encoding (or charset) does not describe: never retried, the server would send it again. */
export class ContentDecodingFailed extends Error {
  readonly code = 'CONTENT_DECODING_FAILED';
  constructor(readonly problem: string) {
    super(problem);
    this.name = 'ContentDecodingFailed';
  }
}

/** The codings fetch undoes itself (and so an adapter on fetch reports as `decoded`). */
export const FETCH_DECODED_CODINGS: ReadonlySet<string> = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/** The body of `answer` as text (see the file's comment); throws ContentDecodingFailed or ResponseTooLarge. */
export function decodeBody(answer: HttpAnswer, maxBytes?: number): DecodedBody {
  const headers = answer.headers;
  const codings = answer.decoded ? [] : codingsOf(headerValue(headers['content-encoding']));
  let bytes = answer.body;
  for (const coding of codings.reverse()) bytes = decompress(bytes, coding, maxBytes);
  const unlabelled = codings.length === 0 && !answer.decoded ? compressionMagic(bytes) : undefined;
  const decoded = decodeText(bytes, charsetParam(headerValue(headers['content-type'])));
  return unlabelled === undefined ? decoded : { ...decoded, unlabelledCompression: unlabelled };
}

function headerValue(value: string | readonly string[] | undefined): string {
  return (Array.isArray(value) ? value.join(', ') : (value as string | undefined)) ?? '';
}

/** `gzip, br` → ['gzip', 'br'] (lower case, identity dropped). */
export function codingsOf(contentEncoding: string): string[] {
  return contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

function decompress(bytes: Uint8Array, coding: string, maxBytes: number | undefined): Uint8Array {
  const options = maxBytes === undefined ? {} : { maxOutputLength: maxBytes };
  try {
    if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(bytes, options);
    if (coding === 'br') return brotliDecompressSync(bytes, options);
    if (coding === 'deflate') {
      // RFC 9110's deflate is zlib-wrapped; some servers send raw deflate under that name
      try {
        return inflateSync(bytes, options);
      } catch (err: unknown) {
        if (tooLarge(err)) throw err;
        return inflateRawSync(bytes, options);
      }
    }
  } catch (err: unknown) {
    if (tooLarge(err)) throw new ResponseTooLarge(maxBytes ?? 0);
    throw new ContentDecodingFailed(
      `the body is not valid ${coding} data although its Content-Encoding says ${coding}`,
    );
  }
  throw new ContentDecodingFailed(
    `the body has Content-Encoding "${coding}", which the exporter cannot decode (it reads gzip, deflate and br)`,
  );
}

const tooLarge = (err: unknown) =>
  err instanceof RangeError && (err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';

/** The `charset` parameter of a Content-Type, lower case, unquoted; '' when absent. */
export function charsetParam(contentType: string): string {
  const m = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType);
  return m?.[2]?.toLowerCase() ?? '';
}

/** Bytes → text by BOM, then `label`, then JSON's UTF-8/UTF-16 rule; invalid sequences counted. */
export function decodeText(bytes: Uint8Array, label: string): Omit<DecodedBody, 'unlabelledCompression'> {
  const bom = bomOf(bytes);
  const charset = bom?.charset ?? resolveLabel(label) ?? sniffUtf16(bytes) ?? 'utf-8';
  const content = bom ? bytes.subarray(bom.length) : bytes;
  const text =
    charset === 'utf-8'
      ? Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8')
      : new TextDecoder(charset, { ignoreBOM: true }).decode(content);
  const replaced = countChar(text, '\uFFFD');
  const invalidSequences = replaced === 0 ? 0 : Math.max(0, replaced - genuineReplacements(content, charset));
  return { text, invalidSequences, charset };
}

function bomOf(bytes: Uint8Array): { charset: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: 'utf-16be', length: 2 };
  return undefined;
}

/** A charset label as TextDecoder names it; undefined when absent; ContentDecodingFailed when unknown. */
function resolveLabel(label: string): string | undefined {
  if (label === '') return undefined;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    throw new ContentDecodingFailed(
      `the body's Content-Type names charset "${label.slice(0, 40)}", which is not a known text encoding`,
    );
  }
}

/** JSON text starts with an ASCII character, so UTF-16 shows a zero byte in its first pair. */
function sniffUtf16(bytes: Uint8Array): string | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0 && bytes[1] !== 0) return 'utf-16be';
  if (bytes[0] !== 0 && bytes[1] === 0) return 'utf-16le';
  return undefined;
}

function countChar(text: string, c: string): number {
  let n = 0;
  for (let at = text.indexOf(c); at !== -1; at = text.indexOf(c, at + 1)) n += 1;
  return n;
}

/** U+FFFD characters the bytes really encode (not replacements of invalid sequences). */
function genuineReplacements(bytes: Uint8Array, charset: string): number {
  let n = 0;
  if (charset === 'utf-8') {
    for (let i = 0; i + 2 < bytes.length; i++) {
      if (bytes[i] === 0xef && bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) n += 1;
    }
  } else if (charset === 'utf-16le' || charset === 'utf-16be') {
    const [lo, hi] = charset === 'utf-16le' ? [0xfd, 0xff] : [0xff, 0xfd];
    for (let i = 0; i + 1 < bytes.length; i += 2) if (bytes[i] === lo && bytes[i + 1] === hi) n += 1;
  }
  return n;
}

/** Compressed bytes recognised by their magic number (brotli has none). */
function compressionMagic(bytes: Uint8Array): 'gzip' | 'zlib' | undefined {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip';
  const [a, b] = [bytes[0], bytes[1]];
  if (a === 0x78 && b !== undefined && [0x01, 0x5e, 0x9c, 0xda].includes(b)) return 'zlib';
  return undefined;
}
