/**
 * The Lambda bundles resolve `#http` to the fetch-based adapter (the `lambda` import condition), the
 * CLI's bundle to the node:http one (`cli`). Here the client runs on each against the simulator over
 * real loopback HTTP, under the faults it must ride out: resets (after the headers and mid-body),
 * timeouts, 5xx, 429 with Retry-After and a token expiring mid-paging. The exports must equal the
 * ground truth exactly, as on undici.
 */
import diagnostics from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttp as fetchHttp } from '#adapters/http-fetch';
import { createHttp as nodeHttp } from '#adapters/http-node';
import { createApiClient } from '#core/api/client';
import type { HttpFactory } from '#core/api/http';
import type { ApiPage, ReportRequest } from '#core/api/types';
import { isExporterError } from '#core/errors';
import { DEFAULT_FAULTS } from '#simulator/faults';
import { type Simulator, startSimulator } from '#simulator/server';

const WINDOW = { startDate: '2026-11-02', endDate: '2026-11-08' };
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ seed: 11, scale: { postsPerDay: 40 } });
});
afterEach(() => {
  sim.setFaults({ ...DEFAULT_FAULTS });
});
afterAll(async () => {
  await sim.close();
});

function client(createHttp: HttpFactory, timeoutMs = 5_000) {
  const retries: string[] = [];
  const api = createApiClient({
    http: createHttp,
    baseUrl: sim.baseUrl,
    credentials: async () => sim.credentials,
    pageSize: 25,
    concurrency: 4,
    timeoutMs,
    maxRetries: 12,
    retryPolicy: { baseMs: 5, capMs: 20 },
    events: { onRetry: (i) => retries.push(i.reason) },
  });
  return { api, retries };
}

function postsRequest(): ReportRequest {
  return { route: 'posts/performance', metrics: ['likes', 'comments', 'shares'], ...WINDOW, filters: {} };
}

async function rowsOf(pages: AsyncIterable<ApiPage>): Promise<unknown[]> {
  const rows: unknown[] = [];
  for await (const page of pages) rows.push(...page.rows);
  return rows;
}

const truth = () =>
  sim.truth.rows('posts/performance', { ...WINDOW, metrics: ['likes', 'comments', 'shares'] });

/** Counts the requests sent through the global fetch. */
function fetchCalls() {
  const spy = vi.spyOn(globalThis, 'fetch');
  return { count: () => spy.mock.calls.length, stop: () => spy.mockRestore() };
}

/** Counts the requests sent through node:http (its diagnostics channel). */
function nodeHttpCalls() {
  let n = 0;
  const onStart = () => {
    n++;
  };
  diagnostics.subscribe('http.client.request.start', onStart);
  return { count: () => n, stop: () => diagnostics.unsubscribe('http.client.request.start', onStart) };
}

describe.each([
  ['fetch', 'the global fetch (the Lambda bundles)', fetchHttp, fetchCalls],
  ['node:http', 'node:http (the CLI bundle)', nodeHttp, nodeHttpCalls],
] as const)('the client on the %s adapter', (_name, through, createHttp, calls) => {
  it('refuses a dispatcher it cannot use', () => {
    expect(() => createHttp({ connections: 1, timeoutMs: 1, dispatcher: {} as never })).toThrow(
      /takes no dispatcher/,
    );
  });

  it(`exports exactly the ground truth with no faults, every request through ${through}`, async () => {
    const counted = calls();
    try {
      const { api, retries } = client(createHttp);
      const from = sim.requestLog().length;
      expect(await rowsOf(api.pages(postsRequest()))).toEqual(truth());
      expect(retries).toEqual([]);
      expect(counted.count()).toBe(sim.requestLog().length - from);
    } finally {
      counted.stop();
    }
  });

  it('retries connections reset after the headers and mid-body, and completes exactly', async () => {
    sim.setFaults({ rateReset: 0.3 });
    const { api, retries } = client(createHttp);
    const before = sim.stats().byStatus.reset ?? 0;
    expect(await rowsOf(api.pages(postsRequest()))).toEqual(truth());
    expect((sim.stats().byStatus.reset ?? 0) - before).toBeGreaterThan(0);
    expect(retries.length).toBeGreaterThan(0);
  });

  it('rides out 5xx and 429 with Retry-After, and a token that expires mid-paging', async () => {
    sim.setFaults({ rate5xx: 0.2, rate429: 0.2, retryAfter: 'seconds', retryAfterSeconds: 0 });
    const { api } = client(createHttp);
    expect(await rowsOf(api.pages(postsRequest()))).toEqual(truth());
    sim.setFaults({ ...DEFAULT_FAULTS, tokenTtlSeconds: 1, rateSlow: 1, slowMs: 120 });
    const tokens = sim.stats().tokensIssued;
    expect(await rowsOf(client(createHttp).api.pages(postsRequest()))).toEqual(truth());
    expect(sim.stats().tokensIssued - tokens).toBeGreaterThan(1);
  });

  it('turns a response slower than the timeout into retried timeouts and then API_NETWORK', async () => {
    sim.setFaults({ rateSlow: 1, slowMs: 400 });
    const { api } = client(createHttp, 100);
    const err = await rowsOf(api.pages(postsRequest())).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isExporterError(err) && err.code).toBe('API_NETWORK');
    expect(String((err as Error).message)).toMatch(/timed out/);
  });
});
