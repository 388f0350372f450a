/**
 * The Lambda bundles resolve `#http` to the fetch-based adapter (the `lambda` import condition). Here
 * the client runs on that adapter against the simulator over real loopback HTTP, under the faults it
 * must ride out: resets (after the headers and mid-body), timeouts, 5xx, 429 with Retry-After and a
 * token expiring mid-paging. The exports must equal the ground truth exactly, as on undici.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttp } from '#adapters/http-fetch';
import { createApiClient } from '#core/api/client';
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

function client(timeoutMs = 5_000) {
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

describe('the client on the fetch adapter (as in the Lambda bundles)', () => {
  it('is the adapter the client uses here, and it refuses a dispatcher it cannot use', () => {
    expect(() => createHttp({ connections: 1, timeoutMs: 1, dispatcher: {} as never })).toThrow(
      /takes no dispatcher/,
    );
  });

  it('exports exactly the ground truth with no faults, every request through the global fetch', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    try {
      const { api, retries } = client();
      const from = sim.requestLog().length;
      expect(await rowsOf(api.pages(postsRequest()))).toEqual(truth());
      expect(retries).toEqual([]);
      expect(fetchSpy).toHaveBeenCalledTimes(sim.requestLog().length - from);
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it('retries connections reset after the headers and mid-body, and completes exactly', async () => {
    sim.setFaults({ rateReset: 0.3 });
    const { api, retries } = client();
    const before = sim.stats().byStatus.reset ?? 0;
    expect(await rowsOf(api.pages(postsRequest()))).toEqual(truth());
    expect((sim.stats().byStatus.reset ?? 0) - before).toBeGreaterThan(0);
    expect(retries.length).toBeGreaterThan(0);
  });

  it('rides out 5xx and 429 with Retry-After, and a token that expires mid-paging', async () => {
    sim.setFaults({ rate5xx: 0.2, rate429: 0.2, retryAfter: 'seconds', retryAfterSeconds: 0 });
    const { api } = client();
    expect(await rowsOf(api.pages(postsRequest()))).toEqual(truth());
    sim.setFaults({ ...DEFAULT_FAULTS, tokenTtlSeconds: 1, rateSlow: 1, slowMs: 120 });
    const tokens = sim.stats().tokensIssued;
    expect(await rowsOf(client().api.pages(postsRequest()))).toEqual(truth());
    expect(sim.stats().tokensIssued - tokens).toBeGreaterThan(1);
  });

  it('turns a response slower than the timeout into retried timeouts and then API_NETWORK', async () => {
    sim.setFaults({ rateSlow: 1, slowMs: 400 });
    const { api } = client(100);
    const err = await rowsOf(api.pages(postsRequest())).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isExporterError(err) && err.code).toBe('API_NETWORK');
    expect(String((err as Error).message)).toMatch(/timed out/);
  });
});
