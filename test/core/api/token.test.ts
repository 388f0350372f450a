import { describe, expect, it } from 'vitest';
import { createTokenManager, jwtExpiryMs, refreshAtMs } from '#core/api/token';
import { fakeClock, makeJwt } from './helpers';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** A token source that issues numbered tokens expiring `lifetimeMs` after the clock's now. */
function issuer(clock: { now: () => number }, lifetimeMs: number | null) {
  let issued = 0;
  return {
    count: () => issued,
    fetchToken: async () => {
      issued++;
      const claims: Record<string, unknown> = { sub: `t${issued}` };
      if (lifetimeMs !== null) claims.exp = Math.floor((clock.now() + lifetimeMs) / 1000);
      return makeJwt(claims);
    },
  };
}

describe('jwt expiry', () => {
  it('reads exp (seconds) from the payload without verifying the signature', () => {
    expect(jwtExpiryMs(makeJwt({ exp: 1_800_000_000 }))).toBe(1_800_000_000_000);
  });

  it('gives null for a token without exp or that is not a JWT', () => {
    expect(jwtExpiryMs(makeJwt({ sub: 'x' }))).toBeNull();
    expect(jwtExpiryMs('opaque-token')).toBeNull();
    expect(jwtExpiryMs('a.%%%.c')).toBeNull();
  });

  it('refreshes a 12-hour token 5 minutes before exp', () => {
    const issued = Date.parse('2026-11-23T08:00:00Z');
    const jwt = makeJwt({ exp: issued / 1000 + 12 * 3600 });
    expect(refreshAtMs(jwt, issued)).toBe(issued + 12 * HOUR - 5 * MIN);
  });

  it('treats a token without exp as valid 12 hours from issue', () => {
    const issued = Date.parse('2026-11-23T08:00:00Z');
    expect(refreshAtMs(makeJwt({ sub: 'x' }), issued)).toBe(issued + 12 * HOUR - 5 * MIN);
  });
});

describe('token manager', () => {
  it('reuses one token until 5 minutes before exp, then fetches a new one', async () => {
    const clock = fakeClock();
    const source = issuer(clock, 12 * HOUR);
    const tokens = createTokenManager({ fetchToken: source.fetchToken, now: clock.now });
    const first = await tokens.get();
    clock.advance(12 * HOUR - 5 * MIN - 1);
    expect(await tokens.get()).toBe(first);
    expect(source.count()).toBe(1);
    clock.advance(1);
    const second = await tokens.get();
    expect(second).not.toBe(first);
    expect(source.count()).toBe(2);
  });

  it('keeps a token without exp for 12 hours less the margin', async () => {
    const clock = fakeClock();
    const source = issuer(clock, null);
    const tokens = createTokenManager({ fetchToken: source.fetchToken, now: clock.now });
    await tokens.get();
    clock.advance(11 * HOUR + 54 * MIN);
    await tokens.get();
    expect(source.count()).toBe(1);
    clock.advance(2 * MIN);
    await tokens.get();
    expect(source.count()).toBe(2);
  });

  it('shares one in-flight token request among concurrent callers', async () => {
    const clock = fakeClock();
    let calls = 0;
    let release: (jwt: string) => void = () => {};
    const tokens = createTokenManager({
      now: clock.now,
      fetchToken: () => {
        calls++;
        return new Promise<string>((resolve) => {
          release = resolve;
        });
      },
    });
    const waiting = Promise.all(Array.from({ length: 10 }, () => tokens.get()));
    release(makeJwt({ exp: clock.now() / 1000 + 3600 }));
    const got = await waiting;
    expect(calls).toBe(1);
    expect(new Set(got).size).toBe(1);
  });

  it('replaces a rejected token once even when many callers report the same rejection', async () => {
    const clock = fakeClock();
    const source = issuer(clock, 12 * HOUR);
    const tokens = createTokenManager({ fetchToken: source.fetchToken, now: clock.now });
    const old = await tokens.get();
    const replaced = await Promise.all([tokens.refresh(old), tokens.refresh(old), tokens.refresh(old)]);
    expect(source.count()).toBe(2);
    expect(new Set(replaced).size).toBe(1);
    expect(replaced[0]).not.toBe(old);
    // a late caller still holding the old token gets the replacement, not a third token
    expect(await tokens.refresh(old)).toBe(replaced[0]);
    expect(source.count()).toBe(2);
  });

  it('lets the next caller retry after a failed token request', async () => {
    const clock = fakeClock();
    let calls = 0;
    const tokens = createTokenManager({
      now: clock.now,
      fetchToken: async () => {
        calls++;
        if (calls === 1) throw new Error('token route down');
        return makeJwt({ exp: clock.now() / 1000 + 3600 });
      },
    });
    await expect(tokens.get()).rejects.toThrow('token route down');
    await expect(tokens.get()).resolves.toMatch(/^eyJ/);
    expect(calls).toBe(2);
  });

  it('asks no more for the run once a token request failed for good: every caller gets that error', async () => {
    const clock = fakeClock();
    let calls = 0;
    const refused = new Error('client not permitted');
    const tokens = createTokenManager<{ runId?: string }>({
      now: clock.now,
      fetchToken: async (call) => {
        calls++;
        if (call?.runId === 'run-1') throw refused;
        return makeJwt({ exp: clock.now() / 1000 + 3600 });
      },
      isFinal: (err) => err === refused,
      scopeOf: (call) => call?.runId,
    });
    const run1 = { runId: 'run-1' };
    await expect(tokens.get(run1)).rejects.toBe(refused);
    // later callers of the same run (after the request settled, not only while it was in flight)
    await expect(tokens.get(run1)).rejects.toBe(refused);
    await expect(tokens.refresh('any', run1)).rejects.toBe(refused);
    expect(calls).toBe(1);
    // the next run (a warm Lambda container) asks again
    await expect(tokens.get({ runId: 'run-2' })).resolves.toMatch(/^eyJ/);
    expect(calls).toBe(2);
  });

  it('still reuses a token that lives less than 10 minutes, for half its lifetime', async () => {
    const clock = fakeClock();
    const source = issuer(clock, 60_000);
    const tokens = createTokenManager({ fetchToken: source.fetchToken, now: clock.now });
    await tokens.get();
    clock.advance(29_000);
    await tokens.get();
    expect(source.count()).toBe(1);
    clock.advance(1_000);
    await tokens.get();
    expect(source.count()).toBe(2);
  });
});
