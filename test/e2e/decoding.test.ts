/**
 * One decoding path for every HTTP adapter (node:http in the CLI's bundle, undici in tests, Node's fetch in the Lambda bundles):
 * a loopback server answers with every encoding a real server or proxy sends — gzip/deflate/br asked
 * for or not, a BOM, UTF-16, latin-1, invalid bytes, a gzip bomb, a problem report in a 200, an HTML
 * page, compressed bytes without a header — and each adapter must read (or refuse) it identically.
 */
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttp as undiciHttp } from '#adapters/http';
import { createHttp as fetchHttp } from '#adapters/http-fetch';
import { createHttp as nodeHttp } from '#adapters/http-node';
import { createApiClient } from '#core/api/client';
import type { HttpFactory } from '#core/api/http';
import type { ApiPage } from '#core/api/types';
import { ExporterError } from '#core/errors';
import { POSTS_REQUEST } from '../core/api/helpers';
import { type HostileServer, startHostileServer } from '../support/hostile-server';

const MIB = 1024 * 1024;
const REQUEST = POSTS_REQUEST;
const PAGE = {
  data: [{ postId: 'p1', creatorName: 'Café Müller', metrics: { likes: 1 } }],
  nextCursor: null,
};
const PAGE_TEXT = JSON.stringify(PAGE);

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer({ issueTokens: true });
});
afterAll(async () => {
  await server.close();
});

/** The data route answers `body` with `headers`, whatever was asked. */
function answer(body: Uint8Array | string, headers: Record<string, string>, status = 200): void {
  server.routes.set('/v2/posts/performance', (_req, res: ServerResponse) => {
    res.writeHead(status, headers).end(body);
  });
}

async function pagesOrError(
  http: HttpFactory,
  maxResponseBytes = 32 * MIB,
): Promise<ApiPage[] | ExporterError> {
  const api = createApiClient({
    baseUrl: server.baseUrl,
    http,
    credentials: async () => ({ clientId: 'c', clientSecret: 's3cret-value' }),
    maxRetries: 0,
    maxResponseBytes,
  });
  const pages: ApiPage[] = [];
  try {
    for await (const page of api.pages(REQUEST)) pages.push(page);
    return pages;
  } catch (err: unknown) {
    if (err instanceof ExporterError) return err;
    throw err;
  } finally {
    await api.close();
  }
}

async function rowsOf(http: HttpFactory): Promise<ApiPage> {
  const got = await pagesOrError(http);
  if (got instanceof ExporterError) throw new Error(`expected rows, got ${got.code}: ${got.message}`);
  expect(got).toHaveLength(1);
  return got[0] as ApiPage;
}

async function errorOf(http: HttpFactory, maxResponseBytes?: number): Promise<ExporterError> {
  const got = await pagesOrError(http, maxResponseBytes);
  if (!(got instanceof ExporterError)) throw new Error('expected an error, got pages');
  return got;
}

const utf16 = (text: string, order: 'le' | 'be', bom: boolean): Buffer => {
  const le = Buffer.from(text, 'utf16le');
  const bytes = order === 'le' ? le : Buffer.from(le).swap16();
  return bom ? Buffer.concat([Buffer.from(order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]), bytes]) : bytes;
};

const JSON_TYPE = { 'content-type': 'application/json' };

describe.each([
  ['undici (tests, the CLI from source)', undiciHttp],
  ['node:http (the CLI)', nodeHttp],
  ['fetch (Lambda)', fetchHttp],
])('decoding through the %s adapter', (_name, http) => {
  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('reads a body with Content-Encoding %s', async (coding, compress) => {
    answer(compress(Buffer.from(PAGE_TEXT)), { ...JSON_TYPE, 'content-encoding': coding });
    expect((await rowsOf(http)).rows).toEqual(PAGE.data);
  });

  it('reads raw deflate sent as "deflate" (a common server bug) on the CLI', async () => {
    answer(deflateRawSync(Buffer.from(PAGE_TEXT)), { ...JSON_TYPE, 'content-encoding': 'deflate' });
    // fetch decodes deflate itself and copes with both forms too
    expect((await rowsOf(http)).rows).toEqual(PAGE.data);
  });

  it.each([
    ['a UTF-8 BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(PAGE_TEXT)]), JSON_TYPE],
    ['UTF-16LE with a BOM', utf16(PAGE_TEXT, 'le', true), JSON_TYPE],
    ['UTF-16BE with a BOM', utf16(PAGE_TEXT, 'be', true), JSON_TYPE],
    ['UTF-16BE without a BOM (JSON sniffing)', utf16(PAGE_TEXT, 'be', false), JSON_TYPE],
    [
      'charset=utf-16le',
      utf16(PAGE_TEXT, 'le', false),
      { 'content-type': 'application/json; charset=utf-16le' },
    ],
    [
      'charset=iso-8859-1',
      Buffer.from(PAGE_TEXT, 'latin1'),
      { 'content-type': 'application/json; charset=ISO-8859-1' },
    ],
    [
      'charset="windows-1252" and gzip',
      gzipSync(Buffer.from(PAGE_TEXT, 'latin1')),
      {
        'content-type': 'application/json; charset="windows-1252"',
        'content-encoding': 'gzip',
      },
    ],
  ])('reads a body in %s as "Café Müller"', async (_what, body, headers) => {
    answer(body, headers);
    const page = await rowsOf(http);
    expect(page.rows[0]?.creatorName).toBe('Café Müller');
    expect(page.invalidSequences).toBeUndefined();
  });

  it('decodes invalid UTF-8 with replacement and counts the invalid sequences, not a genuine U+FFFD', async () => {
    const body = Buffer.concat([
      Buffer.from('{"data":[{"postId":"p1","creatorName":"A'),
      Buffer.from([0xc3, 0x28, 0xff]), // two invalid sequences
      Buffer.from('B \uFFFD real","metrics":{"likes":1}}],"nextCursor":null}'),
    ]);
    answer(body, JSON_TYPE);
    const page = await rowsOf(http);
    expect(page.rows[0]?.creatorName).toBe('A\uFFFD(\uFFFDB \uFFFD real');
    expect(page.invalidSequences).toBe(2);
  });

  it('stops a gzip bomb at the decompression bound (api.maxResponseMiB)', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * MIB, 0x20));
    expect(bomb.length).toBeLessThan(MIB / 8);
    answer(bomb, { ...JSON_TYPE, 'content-encoding': 'gzip' });
    const err = await errorOf(http, MIB);
    expect(err.code).toBe('API_BAD_RESPONSE');
    expect(err.message).toContain(
      'GET /v2/posts/performance: the response is larger than 1 MiB (api.maxResponseMiB)',
    );
  });

  it('says a body labelled gzip is not gzip', async () => {
    answer(PAGE_TEXT, { ...JSON_TYPE, 'content-encoding': 'gzip' });
    const err = await errorOf(http);
    expect(err.code).toBe('API_BAD_RESPONSE');
    expect(err.message).toBe(
      'GET /v2/posts/performance: the body is not valid gzip data although its Content-Encoding says gzip',
    );
  });

  it('names gzip bytes sent without a Content-Encoding header', async () => {
    answer(gzipSync(Buffer.from(PAGE_TEXT)), JSON_TYPE);
    const err = await errorOf(http);
    expect(err.message).toMatch(
      /^GET \/v2\/posts\/performance: the response is not JSON \(\d+ characters\): it is gzip-compressed data sent without a Content-Encoding header/,
    );
  });

  it('names an HTML page for what it is, with its title', async () => {
    answer(
      '<!DOCTYPE html><html><head><title>Sign in – Corporate Proxy</title></head><body>…</body></html>',
      {
        'content-type': 'text/html; charset=utf-8',
      },
    );
    const err = await errorOf(http);
    expect(err.message).toContain(
      'it is an HTML page titled "Sign in – Corporate Proxy" (Content-Type text/html)',
    );
  });

  it('shows the title and detail of a problem report answered with 200', async () => {
    answer(
      JSON.stringify({
        type: 'about:blank',
        title: 'Quota exceeded',
        detail: 'daily quota of 10000 requests used up',
        status: 429,
      }),
      {
        'content-type': 'application/problem+json',
      },
    );
    const err = await errorOf(http);
    expect(err.code).toBe('API_BAD_RESPONSE');
    expect(err.message).toBe(
      'GET /v2/posts/performance: the server answered with a problem report instead of data: Quota exceeded: daily quota of 10000 requests used up (status 429 in the body)',
    );
  });

  it('names an unknown charset', async () => {
    answer(PAGE_TEXT, { 'content-type': 'application/json; charset=klingon' });
    const err = await errorOf(http);
    expect(err.message).toBe(
      `GET /v2/posts/performance: the body's Content-Type names charset "klingon", which is not a known text encoding`,
    );
  });

  it('carries partial-result markers of a 200 page on the page, redacted', async () => {
    answer(
      JSON.stringify({
        ...PAGE,
        errors: [{ message: 'shard 3 of 4 timed out; results are partial (secret s3cret-value)' }],
        partial: true,
      }),
      JSON_TYPE,
    );
    const page = await rowsOf(http);
    expect(page.serverPartial).toEqual({
      markers: ['partial', 'errors'],
      messages: ['shard 3 of 4 timed out; results are partial (secret [redacted])'],
    });
  });
});
