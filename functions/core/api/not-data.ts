/**
 * What a 2xx body is when it is not a page of data, in words an operator can act on: a problem
 * report (RFC 9457 `application/problem+json`, or any object with a `title`/`detail` and no `data`)
 * shows the server's own title and detail; a body that is not JSON is named for what it is
 * (compressed without a Content-Encoding, an HTML page, XML, empty, plain text …).
 */
import { serverText } from './errors';

/** The server's title and detail when `json` is a problem report rather than a page; else null. */
export function problemReport(json: unknown, text: string, contentType: string): string | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  const problemType = /^application\/problem\+json\b/i.test(contentType.trim());
  const looksLikeOne = !('data' in o) && (typeof o.title === 'string' || typeof o.detail === 'string');
  if (!problemType && !looksLikeOne) return null;
  const status = typeof o.status === 'number' ? ` (status ${o.status} in the body)` : '';
  return `${serverText(text)}${status}`;
}

/** What a body that failed to parse as JSON is. */
export function describeNotJson(
  text: string,
  contentType: string,
  unlabelledCompression?: 'gzip' | 'zlib',
): string {
  if (unlabelledCompression !== undefined) {
    return `it is ${unlabelledCompression === 'gzip' ? 'gzip' : 'zlib (deflate)'}-compressed data sent without a Content-Encoding header, so it could not be decompressed — the server (or a proxy in front of it) must send "Content-Encoding: ${unlabelledCompression === 'gzip' ? 'gzip' : 'deflate'}" with it`;
  }
  const start = text.trimStart();
  const type = contentType.split(';')[0]?.trim().toLowerCase() || 'none';
  if (start === '') return `the body is empty (Content-Type ${type})`;
  if (/^<!doctype html|^<html|^<head|^<body/i.test(start) || type === 'text/html') {
    const title = /<title[^>]*>([^<]{0,200})/i.exec(start)?.[1]?.trim();
    return `it is an HTML page${title ? ` titled "${title.slice(0, 120)}"` : ''} (Content-Type ${type}) — often a proxy's, gateway's or login page rather than the API's answer`;
  }
  if (start.startsWith('<')) return `it is XML or markup (Content-Type ${type})`;
  if (start.startsWith('\uFEFF')) return 'it starts with a second byte order mark';
  if (start.startsWith('\uFFFD')) {
    return `it starts with bytes that are not valid text in its charset (Content-Type ${contentType.trim() || 'none'}) — binary or compressed data, or a wrong charset`;
  }
  return `it starts with ${JSON.stringify(Array.from(start).slice(0, 40).join(''))} (Content-Type ${type})`;
}
