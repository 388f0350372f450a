/**
 * The folder lock (functions/adapters/fs-lock.ts) when a waiter's reading of the generations is stale:
 * it read generation 4 released, and meanwhile generation 5 was taken and released too. Its link of
 * `000000000005` then succeeds (the released one is `000000000005.free`); holding it would let another
 * waiter, reading `5.free`, take generation 6 at the same time. Found as a flaky count of generations
 * in fs-lock.test.ts's race; this makes the stale reading happen every time.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Readings of a lock folder to answer from this list instead of the disk, once each. */
const stale: string[][] = [];

vi.mock('#adapters/fs-inline', async (importOriginal) => {
  const real = await importOriginal<typeof import('#adapters/fs-inline')>();
  return {
    ...real,
    readdir: ((path: string, ...rest: unknown[]) => {
      const next = String(path).includes('lock') ? stale.shift() : undefined;
      return next ? Promise.resolve(next) : (real.readdir as (...a: unknown[]) => unknown)(path, ...rest);
    }) as typeof real.readdir,
  };
});

const { acquireLock } = await import('#adapters/fs-lock');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fs-lock-stale-'));
});
afterEach(async () => {
  stale.length = 0;
  await rm(dir, { recursive: true, force: true });
});

describe('the folder lock, read stale', () => {
  it('does not hold a generation number that was taken and released since its reading; takes the next one', async () => {
    const lock = join(dir, 'lock');
    const held = await acquireLock(lock);
    await held.release();
    const second = await acquireLock(lock);
    await second.release();
    // on disk: 000000000002.free; the next waiter reads the folder as it was before generation 2
    expect(await readdir(lock)).toEqual(['000000000002.free']);
    stale.push(['000000000001.free']);
    const late = await acquireLock(lock);
    // it holds generation 3, and its copy of 2 is gone
    expect((await readdir(lock)).filter((f) => !f.startsWith('ticket-')).sort()).toEqual(['000000000003']);
    // while it holds, nobody else gets the lock
    await expect(acquireLock(lock, { waitMs: 50 })).rejects.toMatchObject({ code: 'WRITE_FAILED' });
    await late.release();
    expect(await readdir(lock)).toEqual(['000000000003.free']);
  });
});
