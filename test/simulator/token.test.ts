import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '#simulator/server';
import { get, start, token } from './helpers';

let sim: Simulator;
let jwt: string;
beforeAll(async () => {
  ({ sim, jwt } = await start());
});
afterAll(() => sim.close());

const post = (body: string) =>
  fetch(`${sim.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });

describe('POST /oauth/token', () => {
  it('issues an HS256 JWT with sub, iat and exp twelve hours later', async () => {
    const parts = jwt.split('.');
    expect(parts).toHaveLength(3);
    const head = JSON.parse(Buffer.from(parts[0] as string, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const claims = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString()) as Record<
      string,
      number
    >;
    expect(head.alg).toBe('HS256');
    expect(claims.sub).toBe(sim.credentials.clientId);
    expect((claims.exp as number) - (claims.iat as number)).toBe(12 * 3600);
    expect(Math.abs((claims.iat as number) - Date.now() / 1000)).toBeLessThan(5);
  });

  it('answers 401 problem+json without a status field for a wrong secret', async () => {
    const res = await post(JSON.stringify({ clientId: sim.credentials.clientId, clientSecret: 'wrong' }));
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['detail', 'title', 'type']);
  });

  it('answers 403 problem+json for the forbidden client', async () => {
    const res = await post(JSON.stringify(sim.forbiddenCredentials));
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.status).toBeUndefined();
    expect(body.title).toMatch(/not permitted/i);
  });

  it('answers 400 problem+json for a malformed body', async () => {
    const res = await post('{not json');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('counts issued tokens', () => {
    expect(sim.stats().tokensIssued).toBeGreaterThanOrEqual(1);
  });
});

describe('bearer tokens on data routes', () => {
  it('answers 401 without a token and with a tampered one', async () => {
    expect((await get(sim, undefined, '/v2/instances')).status).toBe(401);
    expect((await get(sim, `${jwt}x`, '/v2/instances')).status).toBe(401);
    expect((await get(sim, jwt, '/v2/instances')).status).toBe(200);
  });

  it('answers 401 once a short-lived token has expired', async () => {
    let t = Date.parse('2026-11-23T08:00:00Z');
    const clocked = await startSimulator({ now: () => t });
    try {
      clocked.setFaults({ tokenTtlSeconds: 2 });
      const short = await token(clocked);
      expect((await get(clocked, short, '/v2/instances')).status).toBe(200);
      t += 3_000;
      const after = await get(clocked, short, '/v2/instances');
      expect(after.status).toBe(401);
      expect(after.text).toMatch(/expired/);
    } finally {
      await clocked.close();
    }
  });
});
