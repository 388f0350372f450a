import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '#simulator/server';
import { get, start, token } from './helpers';

let sim: Simulator;
let jwt: string;
beforeAll(async () => {
  ({ sim, jwt } = await start());
});
afterAll(() => sim.close());

const NONE = { rate429: 0, rate5xx: 0, rateReset: 0, rateSlow: 0 };

/** Sends `n` list requests and returns their statuses. */
async function statuses(n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await get(sim, jwt, '/v2/instances')).status);
  return out;
}

describe('faults', () => {
  it('answers 429 with Retry-After in seconds', async () => {
    sim.setFaults({ ...NONE, rate429: 1, retryAfter: 'seconds', retryAfterSeconds: 3 });
    const r = await get(sim, jwt, '/v2/instances');
    sim.setFaults(NONE);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('3');
  });

  it('answers 429 with Retry-After as an HTTP date, or without the header', async () => {
    sim.setFaults({ ...NONE, rate429: 1, retryAfter: 'http-date', retryAfterSeconds: 30 });
    const dated = await get(sim, jwt, '/v2/instances');
    sim.setFaults({ ...NONE, rate429: 1, retryAfter: 'none' });
    const bare = await get(sim, jwt, '/v2/instances');
    sim.setFaults(NONE);
    const when = Date.parse(dated.headers.get('retry-after') ?? '');
    expect(dated.headers.get('retry-after')).toMatch(/GMT$/);
    expect(when - Date.now()).toBeGreaterThan(25_000);
    expect(when - Date.now()).toBeLessThan(35_000);
    expect(bare.status).toBe(429);
    expect(bare.headers.get('retry-after')).toBeNull();
  });

  it('answers 500, 502, 503 and 504 at the configured rate', async () => {
    sim.setFaults({ ...NONE, rate5xx: 0.5 });
    const seen = await statuses(60);
    sim.setFaults(NONE);
    const failed = seen.filter((s) => s >= 500);
    expect(failed.length).toBeGreaterThan(15);
    expect(failed.length).toBeLessThan(45);
    expect(new Set(failed)).toEqual(new Set([500, 502, 503, 504]));
    expect(seen.filter((s) => s === 200).length).toBe(60 - failed.length);
  });

  it('resets the connection mid-response', async () => {
    sim.setFaults({ ...NONE, rateReset: 1 });
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${sim.baseUrl}/v2/instances`, { headers: { authorization: `Bearer ${jwt}` } })
          .then((res) => res.text())
          .then(
            () => 'complete',
            (err: unknown) => (err instanceof Error ? err.name : 'error'),
          ),
      ),
    );
    sim.setFaults(NONE);
    expect(outcomes.every((o) => o !== 'complete')).toBe(true);
    expect(sim.stats().byStatus.reset).toBeGreaterThanOrEqual(4);
  });

  it('resets after the headers or after part of the body', async () => {
    sim.setFaults({ ...NONE, rateReset: 1 });
    const kinds = new Set<string>();
    for (let i = 0; i < 8; i++) {
      kinds.add(
        await new Promise<string>((resolve) => {
          const url = new URL('/v2/instances', sim.baseUrl);
          const req = request(url, { headers: { authorization: `Bearer ${jwt}` } }, (res) => {
            let bytes = 0;
            res.on('data', (c: Buffer) => {
              bytes += c.length;
            });
            res.on('error', () => resolve(bytes > 0 ? 'partial-body' : 'headers'));
            res.on('end', () => resolve('complete'));
          });
          req.on('error', () => resolve('no-headers'));
          req.end();
        }),
      );
    }
    sim.setFaults(NONE);
    expect([...kinds].sort()).toEqual(['headers', 'partial-body']);
  });

  it('delays slow responses by slowMs', async () => {
    sim.setFaults({ ...NONE, rateSlow: 1, slowMs: 300 });
    const t0 = Date.now();
    const r = await get(sim, jwt, '/v2/instances');
    sim.setFaults(NONE);
    expect(r.status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it('never faults the token route', async () => {
    sim.setFaults({ rate429: 1, rate5xx: 1, rateReset: 1 });
    const fresh = await token(sim);
    sim.setFaults(NONE);
    expect(fresh.split('.')).toHaveLength(3);
  });

  it('draws the same faults for the same seed and request sequence', async () => {
    const a = await start({ seed: 3, faults: { rate5xx: 0.3, rate429: 0.2 } });
    const b = await start({ seed: 3, faults: { rate5xx: 0.3, rate429: 0.2 } });
    try {
      const run = async (s: Simulator, t: string) => {
        const out: number[] = [];
        for (let i = 0; i < 30; i++) out.push((await get(s, t, '/v2/instances')).status);
        return out;
      };
      const sa = await run(a.sim, a.jwt);
      expect(await run(b.sim, b.jwt)).toEqual(sa);
      expect(new Set(sa).size).toBeGreaterThan(2);
    } finally {
      await a.sim.close();
      await b.sim.close();
    }
  });

  it('adds latencyMs to every data response', async () => {
    const slow = await start({ latencyMs: 150 });
    try {
      const t0 = Date.now();
      await get(slow.sim, slow.jwt, '/v2/instances');
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    } finally {
      await slow.sim.close();
    }
  });
});

describe('observability for client tests', () => {
  it('counts requests by status and route and keeps a request log with headers', async () => {
    await get(sim, jwt, '/v2/campaigns?limit=1');
    const s = sim.stats();
    expect(s.byRoute.campaigns).toBeGreaterThanOrEqual(1);
    expect(s.byStatus['200']).toBeGreaterThan(0);
    const log = sim.requestLog();
    const last = log[log.length - 1];
    expect(last?.url).toBe('/v2/campaigns?limit=1');
    expect(last?.headers.authorization).toBe(`Bearer ${jwt}`);
    const tokenCalls = log.filter((e) => e.url === '/oauth/token');
    expect(tokenCalls.length).toBeGreaterThan(0);
    expect(tokenCalls.every((e) => !e.url.includes(sim.credentials.clientSecret))).toBe(true);
  });
});
