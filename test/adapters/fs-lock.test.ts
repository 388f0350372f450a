/**
 * The folder lock between processes (functions/adapters/fs-lock.ts), raced: contenders that all find
 * a dead owner's lock at once must still take it one at a time — the old take-over (read the dead
 * pid, delete, re-create) let a late waiter delete the lock another had just taken.
 */
import { mkdir, mkdtemp, readdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, STALE_LOCK_MS } from '#adapters/fs-lock';
import { safeHost } from '#adapters/fs-temp';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fs-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Generation 1 of `lock`, owned by `pid` of this host. */
async function leftBy(lock: string, pid: number, ageMs = 0): Promise<void> {
  await mkdir(lock, { recursive: true });
  const generation = join(lock, '000000000001');
  await writeFile(generation, `${safeHost()}:${pid}:left`);
  const at = (Date.now() - ageMs) / 1000;
  await utimes(generation, at, at);
}

describe('the folder lock', () => {
  it('admits one holder at a time when many contenders find a dead owner at once', async () => {
    for (let round = 0; round < 8; round++) {
      const lock = join(dir, `round-${round}`);
      await leftBy(lock, 999_999_999);
      let inside = 0;
      let most = 0;
      const entered: number[] = [];
      await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const held = await acquireLock(lock, { owner: `${safeHost()}:${process.pid}:c${i}` });
          inside += 1;
          most = Math.max(most, inside);
          entered.push(i);
          // file-system work inside, as a swap does, so other contenders run meanwhile
          await writeFile(join(dir, `work-${round}-${i}`), 'x');
          await tick();
          inside -= 1;
          await held.release();
        }),
      );
      expect(most, `round ${round}`).toBe(1);
      expect(entered.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      // only the last generation is left, released
      expect(await readdir(lock)).toEqual(['000000000009.free']);
    }
  });

  it('waits for a live holder, takes over a stale one, and gives up naming the lock', async () => {
    const lock = join(dir, 'live');
    await leftBy(lock, process.pid);
    const released = setTimeout(
      () => void rename(join(lock, '000000000001'), join(lock, '000000000001.free')),
      30,
    );
    const held = await acquireLock(lock);
    clearTimeout(released);
    await held.release();

    const stale = join(dir, 'stale');
    await leftBy(stale, process.pid, STALE_LOCK_MS + 1_000);
    await (await acquireLock(stale, { waitMs: 50 })).release();

    const busy = join(dir, 'busy');
    await leftBy(busy, process.pid);
    await expect(acquireLock(busy, { waitMs: 40 })).rejects.toThrow(
      `the lock ${busy} stayed held for more than 0.04 s`,
    );
  });
});
