/**
 * The client against the v2 simulator over real HTTP on loopback, through the process's shared undici
 * Agent (adapters/http): complete exports equal the simulator's ground truth under every fault.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpAgent } from '#adapters/http';
import { type ApiClientOptions, createApiClient } from '#core/api/client';
import type { ApiPage, ArrayFormat, ReportRequest } from '#core/api/types';
import type { Route } from '#core/config/routes';
import { createHttp } from '#http';
import { DEFAULT_FAULTS } from '#simulator/faults';
import { type Simulator, startSimulator } from '#simulator/server';
import { collect, failure } from '../../support/pages';
import { recordingLog, recordingSleep } from './helpers';

const WINDOW = { startDate: '2026-11-02', endDate: '2026-11-08' };

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 7, scale: { postsPerDay: 30 } });
});
afterEach(() => {
  sim.setFaults({ ...DEFAULT_FAULTS });
});
afterAll(async () => {
  await closeHttpAgent();
  await sim.close();
});

function request(route: Route, over: Partial<ReportRequest> = {}): ReportRequest {
  const metrics = sim.truth.validMetrics(route).slice(0, 4);
  return { route, metrics, ...WINDOW, filters: {}, ...over };
}

function truthOf(r: ReportRequest): unknown[] {
  return sim.truth.rows(r.route, {
    ...WINDOW,
    ...(r.metrics ? { metrics: [...r.metrics] } : {}),
    ...(r.filters.instanceIds ? { instanceIds: [...r.filters.instanceIds] } : {}),
  });
}

function client(over: Partial<ApiClientOptions> = {}) {
  const log = recordingLog();
  const reauths: string[] = [];
  const retries: Array<{ status: number | null; delayMs: number; reason: string }> = [];
  const api = createApiClient({
    http: createHttp,
    baseUrl: sim.baseUrl,
    credentials: async () => sim.credentials,
    pageSize: 20,
    concurrency: 4,
    timeoutMs: 5_000,
    log,
    events: {
      onReauth: (i) => reauths.push(i.route),
      onRetry: (i) => retries.push({ status: i.status, delayMs: i.delayMs, reason: i.reason }),
    },
    ...over,
  });
  return { api, log, reauths, retries };
}

const rowsOf = (pages: ApiPage[]) => pages.flatMap((p) => p.rows);
const newRequests = (from: number) => sim.requestLog().slice(from);

describe('exports against the simulator', () => {
  it('pages a list route to the end and gets exactly the ground truth, cursors with + / = included', async () => {
    const { api } = client();
    const r = request('posts/performance');
    const pages = await collect(api.pages(r));
    expect(rowsOf(pages)).toEqual(truthOf(r));
    expect(pages.length).toBeGreaterThan(5);
    const cursors = pages.map((p) => p.nextCursor).filter((c): c is string => c !== null);
    expect(cursors.some((c) => /[+/=]/.test(c))).toBe(true);
    expect(pages.at(-1)?.nextCursor).toBeNull();
  });

  it.each(['instances/performance', 'platforms/performance', 'instances/performance-over-time'] as const)(
    'reads the aggregate route %s (data as object or array)',
    async (route) => {
      const { api } = client();
      const r = request(route);
      expect(rowsOf(await collect(api.pages(r)))).toEqual(truthOf(r));
    },
  );

  it.each([
    ['repeat', /metrics=likes&metrics=/, /instanceIds=ins_0001&instanceIds=ins_0002/],
    ['comma', /metrics=likes,/, /instanceIds=ins_0001,ins_0002/],
    ['brackets', /metrics\[\]=likes&metrics\[\]=/, /instanceIds\[\]=ins_0001&instanceIds\[\]=ins_0002/],
  ] as const)('sends arrays in the %s format on the wire', async (format, metrics, instances) => {
    const { api } = client({ arrayFormat: format as ArrayFormat });
    const r = request('campaigns/performance', {
      metrics: ['likes', 'comments'],
      filters: { instanceIds: ['ins_0001', 'ins_0002'] },
    });
    const from = sim.requestLog().length;
    expect(rowsOf(await collect(api.pages(r)))).toEqual(truthOf(r));
    const urls = newRequests(from)
      .map((e) => e.url)
      .filter((u) => u.startsWith('/v2/'));
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      expect(url).toMatch(metrics);
      expect(url).toMatch(instances);
    }
  });

  it('follows empty pages that carry a cursor', async () => {
    sim.setFaults({ rateEmptyPage: 0.5 });
    const { api } = client();
    const r = request('posts/performance');
    const pages = await collect(api.pages(r));
    expect(pages.some((p) => p.rows.length === 0 && p.nextCursor !== null)).toBe(true);
    expect(rowsOf(pages)).toEqual(truthOf(r));
  });

  it('copes with a server-side cap on limit', async () => {
    sim.setFaults({ limitCap: 3 });
    const { api } = client({ pageSize: 50 });
    const r = request('campaigns');
    const pages = await collect(api.pages(r));
    expect(Math.max(...pages.map((p) => p.rows.length))).toBeLessThanOrEqual(3);
    expect(rowsOf(pages)).toEqual(sim.truth.rows('campaigns', WINDOW));
  });

  it('fails with API_CURSOR_LOOP when the server repeats a cursor', async () => {
    sim.setFaults({ repeatCursor: true });
    const { api } = client();
    const err = await failure(api.pages(request('posts/performance')));
    expect(err.code).toBe('API_CURSOR_LOOP');
  });
});

describe('tokens against the simulator', () => {
  it('uses one token for a whole multi-page export', async () => {
    const before = sim.stats().tokensIssued;
    const { api } = client();
    const pages = await collect(api.pages(request('posts/performance')));
    expect(pages.length).toBeGreaterThan(5);
    expect(sim.stats().tokensIssued - before).toBe(1);
  });

  it('re-authenticates exactly once per 401 when the token expires mid-paging, and completes', async () => {
    sim.setFaults({ tokenTtlSeconds: 1, slowMs: 150, rateSlow: 1 });
    const frozen = Date.now();
    // a client clock that never advances keeps using the token until the server says 401
    const { api, reauths } = client({ now: () => frozen, pageSize: 15 });
    const before = sim.stats();
    const r = request('posts/performance');
    const pages = await collect(api.pages(r));
    const after = sim.stats();
    const unauthorized = (after.byStatus['401'] ?? 0) - (before.byStatus['401'] ?? 0);
    expect(rowsOf(pages)).toEqual(truthOf(r));
    expect(unauthorized).toBeGreaterThanOrEqual(1);
    expect(reauths).toHaveLength(unauthorized);
    expect(after.tokensIssued - before.tokensIssued).toBe(1 + unauthorized);
  });

  it('says "check the secret" for rejected credentials, without retrying or echoing the secret', async () => {
    const canary = 'CANARY-wrong-secret-4e1b';
    const before = sim.stats().byRoute['oauth/token'] ?? 0;
    const { api, log } = client({
      credentials: async () => ({ clientId: sim.credentials.clientId, clientSecret: canary }),
    });
    const err = await failure(api.pages(request('campaigns')));
    expect(err.code).toBe('AUTH_REJECTED');
    expect(err.message).toContain('credentials rejected — check the secret');
    expect(err.message).toContain('Invalid client credentials');
    expect((sim.stats().byRoute['oauth/token'] ?? 0) - before).toBe(1);
    expect(`${err.message} ${JSON.stringify(err.details)} ${log.text()}`).not.toContain(canary);
  });

  it('says retrying will not help for a client that may not issue tokens', async () => {
    const { api } = client({ credentials: async () => sim.forbiddenCredentials });
    const err = await failure(api.pages(request('campaigns')));
    expect(err.code).toBe('AUTH_FORBIDDEN');
    expect(err.message).toContain("retrying will not help, contact the provider's account team");
    expect(err.message).toContain('Client not permitted');
  });
});

describe('faults against the simulator', () => {
  it('rides out a 429 storm honouring Retry-After in seconds', async () => {
    sim.setFaults({ rate429: 0.4, retryAfter: 'seconds', retryAfterSeconds: 3 });
    const { sleep, waits } = recordingSleep();
    const { api } = client({ sleep, maxRetries: 8 });
    const r = request('posts/performance');
    expect(rowsOf(await collect(api.pages(r)))).toEqual(truthOf(r));
    expect(waits.length).toBeGreaterThan(2);
    expect(new Set(waits)).toEqual(new Set([3000]));
  });

  it('rides out a 429 storm honouring Retry-After as an HTTP date', async () => {
    sim.setFaults({ rate429: 0.4, retryAfter: 'http-date', retryAfterSeconds: 5 });
    const { sleep, waits } = recordingSleep();
    const { api } = client({ sleep, maxRetries: 8 });
    const r = request('posts/performance');
    expect(rowsOf(await collect(api.pages(r)))).toEqual(truthOf(r));
    expect(waits.length).toBeGreaterThan(2);
    // an HTTP date has whole seconds: the wait is 4–5 s from the moment the answer arrived
    for (const w of waits) {
      expect(w).toBeGreaterThan(3500);
      expect(w).toBeLessThanOrEqual(5000);
    }
  });

  it('really waits the Retry-After seconds (real time, short)', async () => {
    // every request is limited until the client has seen one 429; then the storm ends
    sim.setFaults({ rate429: 1, retryAfter: 'seconds', retryAfterSeconds: 1 });
    const { api, retries } = client({
      events: {
        onRetry: (i) => {
          retries.push({ status: i.status, delayMs: i.delayMs, reason: i.reason });
          sim.setFaults({ rate429: 0 });
        },
      },
    });
    const started = Date.now();
    const r = request('campaigns/performance');
    expect(rowsOf(await collect(api.pages(r)))).toEqual(truthOf(r));
    expect(retries).toEqual([{ status: 429, delayMs: 1000, reason: 'HTTP 429' }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('retries 5xx answers and completes', async () => {
    sim.setFaults({ rate5xx: 0.4 });
    const { sleep } = recordingSleep();
    const { api, retries } = client({ sleep, maxRetries: 8 });
    const r = request('posts/performance');
    expect(rowsOf(await collect(api.pages(r)))).toEqual(truthOf(r));
    expect(retries.some((x) => x.status !== null && x.status >= 500)).toBe(true);
  });

  it('retries connections reset mid-page and completes', async () => {
    sim.setFaults({ rateReset: 0.4 });
    const { sleep } = recordingSleep();
    const before = sim.stats().byStatus.reset ?? 0;
    const { api, retries } = client({ sleep, maxRetries: 8 });
    const r = request('posts/performance');
    expect(rowsOf(await collect(api.pages(r)))).toEqual(truthOf(r));
    expect((sim.stats().byStatus.reset ?? 0) - before).toBeGreaterThan(0);
    expect(retries.some((x) => x.reason === 'reset')).toBe(true);
  });

  it('retries requests that time out and completes', async () => {
    sim.setFaults({ slowMs: 600, rateSlow: 0.4 });
    const { sleep } = recordingSleep();
    const { api, retries } = client({ sleep, timeoutMs: 250, maxRetries: 8 });
    const r = request('posts/performance');
    expect(rowsOf(await collect(api.pages(r)))).toEqual(truthOf(r));
    expect(retries.some((x) => x.reason === 'timeout')).toBe(true);
  });

  it('stops at maxRetries with a clear error when the server keeps failing', async () => {
    sim.setFaults({ rate5xx: 1 });
    const { sleep, waits } = recordingSleep();
    const { api } = client({ sleep, maxRetries: 2 });
    const err = await failure(api.pages(request('posts/performance')));
    expect(err.code).toBe('API_SERVER_ERROR');
    expect(err.message).toMatch(
      /^GET \/v2\/posts\/performance answered 50\d .*\(gave up after 3 attempts\)$/,
    );
    expect(waits).toHaveLength(2);
  });
});

describe('data-route errors against the simulator', () => {
  it('does not retry a 400 for an invalid metric and names the valid set', async () => {
    const { api, retries } = client();
    const from = sim.requestLog().length;
    const err = await failure(
      api.pages(request('platforms/performance', { metrics: ['likes', 'trackingLinksClicks'] })),
    );
    expect(err.code).toBe('API_BAD_REQUEST');
    const valid = sim.truth.validMetrics('platforms/performance');
    expect(err.message).toContain(`(valid metrics named by the server: ${valid.join(', ')})`);
    expect(err.details.validMetrics).toEqual(valid);
    expect(retries).toEqual([]);
    expect(newRequests(from).filter((e) => e.url.startsWith('/v2/'))).toHaveLength(1);
  });

  it('does not retry a 403 and names the instanceIds sent', async () => {
    const { api } = client();
    const outside = sim.truth.unboundInstanceIds[0] ?? 'ins_missing';
    const ids = [sim.truth.boundInstanceIds[0] ?? 'ins_0001', outside];
    const err = await failure(api.pages(request('campaigns/performance', { filters: { instanceIds: ids } })));
    expect(err.code).toBe('API_FORBIDDEN');
    expect(err.message).toContain(`instanceIds sent: ${ids.join(', ')}`);
    expect(err.message).toContain(outside);
  });
});

describe('secrets against the simulator', () => {
  it('never sends the secret or the token in a URL, and never puts them in errors or logs', async () => {
    sim.setFaults({
      rate429: 0.2,
      retryAfter: 'seconds',
      retryAfterSeconds: 1,
      rate5xx: 0.2,
      rateReset: 0.1,
    });
    const { sleep } = recordingSleep();
    const { api, log } = client({ sleep, maxRetries: 8 });
    const from = sim.requestLog().length;
    await collect(api.pages(request('posts/performance')));
    const err = await failure(api.pages(request('platforms/performance', { metrics: ['nope'] })));
    const entries = newRequests(from);
    const jwts = new Set(
      entries.map((e) => (e.headers.authorization ?? '').replace(/^Bearer /, '')).filter((j) => j !== ''),
    );
    expect(jwts.size).toBeGreaterThan(0);
    const secret = sim.credentials.clientSecret;
    const seen = [...entries.map((e) => e.url), err.message, JSON.stringify(err.details), log.text()].join(
      '\n',
    );
    expect(seen).not.toContain(secret);
    for (const jwt of jwts) expect(seen).not.toContain(jwt);
    expect(log.lines.length).toBeGreaterThan(0);
  });
});
