import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import { type LeaseOptions, LeaseRecordSchema, WindowLease } from '#core/commit/lease';
import { isExporterError } from '#core/errors';
import type { Sink } from '#core/sink';

const REF = {
  prefix: 'exports/',
  scheduleId: 'daily',
  window: { start: '2026-11-22', end: '2026-11-22', timezone: 'UTC' },
};
const KEY = 'exports/daily/_manifests/dt=2026-11-22/_lease.json';
const FAST: LeaseOptions = { ttlMs: 60_000, waitMs: 0, pollMs: 10 };

let dir: string;
let sink: Sink;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lease-'));
  sink = createFsSink(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function holder(): Promise<string | undefined> {
  const body = await sink.getObject(KEY);
  return body ? LeaseRecordSchema.parse(JSON.parse(new TextDecoder().decode(body))).runId : undefined;
}

async function busy(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err: unknown) {
    if (isExporterError(err, 'WINDOW_BUSY')) return err.message;
    throw err;
  }
  throw new Error('expected WINDOW_BUSY');
}

describe('window lease', () => {
  it('one run holds the window; another stops with a message naming it and since when', async () => {
    const now = () => new Date('2026-11-23T08:00:00Z');
    await WindowLease.acquire(sink, REF, 'run-a', FAST, now);
    const message = await busy(WindowLease.acquire(sink, REF, 'run-b', FAST, now));
    expect(message).toContain('run run-a (since 2026-11-23T08:00:00.000Z');
    expect(message).toContain('window 2026-11-22..2026-11-22 of schedule "daily"');
    expect(message).toContain(join(dir, KEY));
    expect(await holder()).toBe('run-a');
  });

  it('is re-entrant for the same run id (parallel steps of one run) and renews the expiry', async () => {
    let t = Date.parse('2026-11-23T08:00:00Z');
    const now = () => new Date(t);
    await WindowLease.acquire(sink, REF, 'run-a', FAST, now);
    t += 50_000;
    const again = await WindowLease.acquire(sink, REF, 'run-a', FAST, now);
    t += 50_000; // 100 s after the first take, 50 s after the re-entry: still live
    await busy(WindowLease.acquire(sink, REF, 'run-b', FAST, now));
    await again.release();
    expect(await holder()).toBeUndefined();
  });

  it('sixty steps of one run renewing at once all succeed (a sibling’s renewal extends the lease too)', async () => {
    const steps = await Promise.all(
      Array.from({ length: 60 }, () => WindowLease.acquire(sink, REF, 'run-a', FAST, () => new Date())),
    );
    await Promise.all(steps.map((s) => s.renew()));
    expect(await holder()).toBe('run-a');
  });

  it('waits a bounded time and takes the window once the holder releases it', async () => {
    const a = await WindowLease.acquire(sink, REF, 'run-a', FAST, () => new Date());
    let reads = 0; // run-b's looks at the lease: the first finds run-a, so b is waiting
    const counted = new Proxy(sink, {
      get: (target, key, receiver) =>
        key === 'getTagged'
          ? (k: string) => {
              reads += 1;
              return target.getTagged(k);
            }
          : Reflect.get(target, key, receiver),
    });
    const b = WindowLease.acquire(counted, REF, 'run-b', { ...FAST, waitMs: 5_000 }, () => new Date());
    await vi.waitUntil(() => reads > 0);
    await a.release();
    await b;
    expect(await holder()).toBe('run-b');
  });

  it('an expired lease is taken over, by exactly one of several runs racing for it', async () => {
    let t = Date.parse('2026-11-23T08:00:00Z');
    const now = () => new Date(t);
    const dead = await WindowLease.acquire(sink, REF, 'dead', FAST, now);
    t += 61_000;
    const racers = ['r1', 'r2', 'r3', 'r4'].map((id) =>
      WindowLease.acquire(createFsSink(dir), REF, id, FAST, now).then(
        () => id,
        (err: unknown) => (isExporterError(err, 'WINDOW_BUSY') ? null : Promise.reject(err)),
      ),
    );
    const winners = (await Promise.all(racers)).filter((w) => w !== null);
    expect(winners).toHaveLength(1);
    expect(await holder()).toBe(winners[0]);
    await expect(dead.renew()).rejects.toMatchObject({ code: 'LEASE_LOST' });
    await dead.release(); // not its lease any more: left alone
    expect(await holder()).toBe(winners[0]);
  });

  it("a local run's lease is free at once when its process on this host is gone", async () => {
    const now = () => new Date();
    const gone = { host: 'h1', pid: 4242, alive: () => true };
    await WindowLease.acquire(sink, REF, 'killed', { ...FAST, owner: gone }, now);
    const otherHost = { host: 'h2', pid: 1, alive: () => false };
    await busy(WindowLease.acquire(sink, REF, 'elsewhere', { ...FAST, owner: otherHost }, now));
    const sameHost = { host: 'h1', pid: 1, alive: (pid: number) => pid !== 4242 };
    await WindowLease.acquire(sink, REF, 'rerun', { ...FAST, owner: sameHost }, now);
    expect(await holder()).toBe('rerun');
  });

  it('keepAlive renews the lease so it outlives its first expiry', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let t = Date.parse('2026-11-23T08:00:00Z');
      const now = () => new Date(t);
      const lease = await WindowLease.acquire(sink, REF, 'run-a', FAST, now);
      const beat = lease.keepAlive(20);
      const expiry = async () => {
        const body = (await sink.getObject(KEY)) ?? new Uint8Array();
        return LeaseRecordSchema.parse(JSON.parse(new TextDecoder().decode(body))).expiresAt;
      };
      const first = await expiry();
      t += 50_000; // 10 s before the first expiry
      await vi.advanceTimersByTimeAsync(20); // one renewal
      await vi.waitUntil(async () => (await expiry()) !== first);
      t += 50_000; // past the first expiry, within the renewed one
      await busy(WindowLease.acquire(sink, REF, 'run-b', FAST, now));
      beat.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
