/**
 * Serves generated answers over real HTTP on loopback (not a test file): each window's rows as pages
 * chained by cursors, each body written as its exact JSON text in the declared charset, in pieces cut
 * anywhere (inside a UTF-8 sequence too).
 */
import type { ServerResponse } from 'node:http';
import { type Exact, isNum, isObj } from '../exact-json';
import { type HostileHandler, type HostileServer, startHostileServer } from '../hostile-server';
import { type Charset, INVALID_BYTE, type RunAnswer } from './arbitraries';

/** JSON text of a value; characters above `maxCode` are written as `\uXXXX` escapes. */
export function jsonText(v: Exact, maxCode = 0x10ffff): string {
  if (v === null || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return stringText(v, maxCode);
  if (isNum(v)) return v.num;
  if (isObj(v))
    return `{${v.entries.map(([k, x]) => `${stringText(k, maxCode)}:${jsonText(x, maxCode)}`).join(',')}}`;
  return `[${v.map((x) => jsonText(x, maxCode)).join(',')}]`;
}

function stringText(s: string, maxCode: number): string {
  // JSON.stringify escapes controls, quotes and lone surrogates; the rest is written as is
  const text = JSON.stringify(s);
  if (maxCode >= 0xffff) return text;
  return text.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const INVALID_UTF8 = Buffer.from(INVALID_BYTE, 'utf8');

/** The body's bytes and its Content-Type for a charset. */
export function encodeBody(text: string, charset: Charset): { bytes: Buffer; contentType: string } {
  // the stand-in for a bad byte becomes what is invalid in each charset (latin-1 has no invalid
  // byte: there it is a lone-surrogate escape, which reads as U+FFFD by the same rule)
  const utf8 = (t: string) => replaceAll(Buffer.from(t, 'utf8'), INVALID_UTF8, Buffer.from([0xff]));
  switch (charset) {
    case 'none':
    case 'utf-8':
    case 'UTF-8': {
      const bytes = replaceAll(Buffer.from(text, 'utf8'), INVALID_UTF8, Buffer.from([0xff]));
      return {
        bytes,
        contentType: charset === 'none' ? 'application/json' : `application/json; charset=${charset}`,
      };
    }
    case 'utf-8-bom':
      return {
        bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(text)]),
        contentType: 'application/json; charset=utf-8',
      };
    case 'iso-8859-1':
      return {
        bytes: Buffer.from(text.replaceAll('\\ufdd0', '\\ud800'), 'latin1'),
        contentType: 'application/json; charset=iso-8859-1',
      };
    case 'utf-16le':
      return {
        bytes: Buffer.from(text.replaceAll(INVALID_BYTE, '\uD800'), 'utf16le'),
        contentType: 'application/json; charset=utf-16le',
      };
  }
}

function replaceAll(buf: Buffer, find: Buffer, by: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = buf.indexOf(find); at >= 0; at = buf.indexOf(find, from)) {
    parts.push(buf.subarray(from, at), by);
    from = at + find.length;
  }
  parts.push(buf.subarray(from));
  return Buffer.concat(parts);
}

/** The pages of an answer: row slices between its breaks (a repeated break is an empty page). */
export function pagesOf(answer: RunAnswer): Exact[][] {
  const bounds = [0, ...answer.breaks, answer.rows.length];
  const pages: Exact[][] = [];
  for (let i = 1; i < bounds.length; i += 1) pages.push(answer.rows.slice(bounds[i - 1], bounds[i]));
  return pages;
}

/** The body text of page `i` of `pages`. */
export function pageText(pages: readonly Exact[][], i: number, charset: Charset): string {
  const maxCode = charset === 'iso-8859-1' ? 0xff : 0x10ffff;
  const next = i + 1 < pages.length ? `"c${i + 1}"` : 'null';
  return `{"data":[${(pages[i] ?? []).map((r) => jsonText(r, maxCode)).join(',')}],"nextCursor":${next}}`;
}

export interface AnswerServer {
  readonly baseUrl: string;
  /** The answer for requests whose `endDate` is this date. */
  readonly answers: Map<string, RunAnswer>;
  close(): Promise<void>;
}

/** A loopback Reporting API that serves `answers` on every route given. */
export async function startAnswerServer(routes: readonly string[]): Promise<AnswerServer> {
  const server: HostileServer = await startHostileServer({ issueTokens: true });
  const answers = new Map<string, RunAnswer>();
  const serve: HostileHandler = async (req, res) => {
    const answer = answers.get(req.url.searchParams.get('endDate') ?? '');
    if (answer === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"title":"no answer for this window"}');
      return;
    }
    const pages = pagesOf(answer);
    const cursor = req.url.searchParams.get('nextCursor');
    const i = cursor === null ? 0 : Number(cursor.slice(1));
    const { bytes, contentType } = encodeBody(pageText(pages, i, answer.charset), answer.charset);
    await writeInPieces(res, bytes, answer.cuts, contentType);
  };
  for (const route of routes) server.routes.set(`/v2/${route}`, serve);
  return {
    baseUrl: server.baseUrl,
    answers,
    close: () => {
      server.requests.length = 0;
      return server.close();
    },
  };
}

async function writeInPieces(
  res: ServerResponse,
  bytes: Buffer,
  cuts: readonly number[],
  contentType: string,
) {
  res.writeHead(200, { 'content-type': contentType });
  let from = 0;
  for (const cut of cuts) {
    const to = Math.floor(cut * bytes.length);
    if (to <= from) continue;
    await new Promise<void>((resolve) => res.write(bytes.subarray(from, to), () => resolve()));
    from = to;
  }
  res.end(bytes.subarray(from));
}
