/**
 * Servers that send too much: pages far larger than the limit asked for (with and without a
 * content-length), and rows nested 20,000 levels deep. The client must stop reading at
 * `api.maxResponseMiB` (counting bytes before anything is parsed) with a clear error, on both HTTP
 * adapters, and a whole CLI run must end in a failed report — not in an out-of-memory crash.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttp as undiciHttp } from '#adapters/http';
import { createHttp as fetchHttp } from '#adapters/http-fetch';
import { createHttp as nodeHttp } from '#adapters/http-node';
import { createApiClient } from '#core/api/client';
import type { HttpFactory } from '#core/api/http';
import { ExporterError } from '#core/errors';
import { POSTS_REQUEST } from '../core/api/helpers';
import { type HostileServer, startHostileServer } from '../support/hostile-server';
import { apiCredentials, runArgs, runCli } from '../support/run-cli';

const MIB = 1024 * 1024;
const REQUEST = POSTS_REQUEST;

let server: HostileServer;
/** Bytes the huge page handler managed to write before the client hung up. */
let written = 0;
/** Resolves when the huge page's response is closed (finished, or the client hung up). */
let closed: Promise<void> = Promise.resolve();

/** A page of `rows` rows of ~1 KB each, streamed (never built in memory), ignoring `limit`. */
function hugePage(res: ServerResponse, rows: number, declareLength: boolean): void {
  const row = (i: number) => `{"postId":"p${i}","caption":"${'x'.repeat(1000)}","metrics":{"likes":${i}}}`;
  const head = '{"data":[';
  const tail = '],"nextCursor":null}';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (declareLength) {
    let n = head.length + tail.length + rows - 1;
    for (let i = 0; i < rows; i++) n += row(i).length;
    headers['content-length'] = String(n);
  }
  res.writeHead(200, headers);
  written = 0;
  let i = 0;
  const pump = () => {
    while (i < rows) {
      const chunk = `${i === 0 ? head : ','}${row(i)}`;
      i += 1;
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end(tail);
  };
  closed = new Promise((resolve) =>
    res.on('close', () => {
      i = rows;
      resolve();
    }),
  );
  pump();
}

beforeAll(async () => {
  server = await startHostileServer({ issueTokens: true });
});
afterAll(async () => {
  await server.close();
});

async function firstError(http: HttpFactory, maxResponseBytes: number): Promise<ExporterError> {
  const api = createApiClient({
    baseUrl: server.baseUrl,
    http,
    credentials: async () => ({ clientId: 'c', clientSecret: 's3cret-value' }),
    maxRetries: 0,
    maxResponseBytes,
  });
  try {
    for await (const _ of api.pages(REQUEST)) {
      // drain
    }
  } catch (err: unknown) {
    if (err instanceof ExporterError) return err;
    throw err;
  } finally {
    await api.close();
  }
  throw new Error('no error');
}

describe.each([
  ['undici', undiciHttp],
  ['node:http', nodeHttp],
  ['fetch', fetchHttp],
])('response size cap (%s adapter)', (_name, http) => {
  it('stops reading a 20 MB page at a 1 MiB cap and says what to change (streamed, no content-length)', async () => {
    server.routes.set('/v2/posts/performance', (_req, res) => hugePage(res, 20_000, false));
    const err = await firstError(http, MIB);
    expect(err.code).toBe('API_BAD_RESPONSE');
    expect(err.message).toBe(
      'GET /v2/posts/performance: the response is larger than 1 MiB (api.maxResponseMiB), so it was not read; the server may be ignoring the page size (limit) — lower api.pageSize, or raise api.maxResponseMiB if its pages really are this large (the Export Lambda has 1,024 MB)',
    );
    expect(err.retryable).toBe(false);
    // the client hung up long before the server got through its 20 MB
    await closed;
    expect(written).toBeLessThan(10 * MIB);
  });

  it('refuses a page whose content-length already says it is too large', async () => {
    server.routes.set('/v2/posts/performance', (_req, res) => hugePage(res, 5_000, true));
    const err = await firstError(http, MIB);
    expect(err.code).toBe('API_BAD_RESPONSE');
    expect(err.message).toContain('larger than 1 MiB');
  });

  it('reads a page under the cap', async () => {
    server.routes.set('/v2/posts/performance', (_req, res) => hugePage(res, 100, false));
    const api = createApiClient({
      baseUrl: server.baseUrl,
      http,
      credentials: async () => ({ clientId: 'c', clientSecret: 's' }),
      maxResponseBytes: MIB,
    });
    let rows = 0;
    for await (const page of api.pages(REQUEST)) rows += page.rows.length;
    await api.close();
    expect(rows).toBe(100);
  });
});

describe('JSON depth', () => {
  it('a row nested 20,000 levels deep is a clear API_BAD_RESPONSE, not a stack overflow', async () => {
    const depth = 20_000;
    server.routes.set('/v2/posts/performance', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        `{"data":[{"postId":"p1","x":${'['.repeat(depth)}${']'.repeat(depth)},"metrics":{"likes":1}}],"nextCursor":null}`,
      );
    });
    const err = await firstError(undiciHttp, 32 * MIB);
    expect(err.code).toBe('API_BAD_RESPONSE');
    expect(err.message).toBe(
      'GET /v2/posts/performance: row 0 of a page nests objects or arrays more than 32 levels deep; the exporter refuses such a response rather than flatten it',
    );
  });
});

describe('a whole run against a server ignoring limit with 100 MB pages', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hostile-pages-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('ends in a failed report with the reason, under a 256 MB heap (no out-of-memory)', async () => {
    server.routes.set('/v2/posts/performance', (_req, res) => hugePage(res, 100_000, false));
    await writeFile(
      join(dir, 'reports.yaml'),
      `api: { baseUrl: "${server.baseUrl}", credentialsSecret: s, maxRetries: 0 }
output: { formats: [csv] }
schedules:
  - id: daily
    cron: "0 6 * * ? *"
    window: yesterday
    reports: [{ id: posts, route: posts/performance, metrics: [likes] }]
`,
    );
    const { code, stdout } = await runCli(
      runArgs(
        'daily',
        '2026-11-23T06:00:00Z',
        '--out',
        join(dir, 'out'),
        '--no-email',
        '-c',
        join(dir, 'reports.yaml'),
      ),
      {
        node: ['--max-old-space-size=256'],
        env: apiCredentials({ clientId: 'c', clientSecret: 's3cret-value' }),
        timeoutMs: 120_000,
      },
    );
    expect(code).toBe(1);
    expect(stdout).toContain(
      'FAILED: GET /v2/posts/performance: the response is larger than 32 MiB (api.maxResponseMiB)',
    );
    const manifest = await readFile(
      join(dir, 'out/exports/daily/_manifests/dt=2026-11-22/manifest.json'),
      'utf8',
    );
    expect(JSON.parse(manifest).reports[0].status).toBe('failed');
  });
});
