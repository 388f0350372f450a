/**
 * A short lock between processes of one host (and on file systems that honour exclusive create), for
 * the folder sink's compare-and-swap. Nothing is ever removed to take a lock over, so no waiter can
 * remove a lock another process has just taken (the race of "read a dead owner, delete, re-create").
 *
 * A lock is a folder of generations: the file `<n>` (created exclusively, by hard link of a file that
 * already holds its owner) is generation n, renamed `<n>.free` when released (so a released lock
 * leaves one file). The holder is the owner
 * of the highest generation that is not free. To take the lock, a waiter creates generation top + 1
 * when the top one is free, its owner is a dead process of this host, or it is older than
 * `STALE_LOCK_MS`; only one waiter can create it. A waiter that read an old top (whose generations a
 * later holder has since cleared) may create a lower number: it then finds a higher generation and
 * does not hold the lock; one that read the top generation before it was taken and released creates
 * that number again beside its `.free` file (a released generation has another name), finds the
 * `.free` and removes its copy. The holder clears the generations below its own.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExporterError } from '#core/errors';
import { link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from './fs-inline';
import { alive, safeHost } from './fs-temp';

export const STALE_LOCK_MS = 10_000;

export interface HeldLock {
  release(): Promise<void>;
}

export interface LockOptions {
  /** Who holds the lock: this host and process, unique per acquisition. */
  readonly owner?: string;
  /** Give up after this long. Default: twice the stale age, so a held lock is always taken over first. */
  readonly waitMs?: number;
  readonly now?: () => number;
}

const GEN = /^\d{12}$/;
const name = (n: number) => String(n).padStart(12, '0');

/** Takes the lock folder `dir` (created when missing); throws WRITE_FAILED when it stays held. */
export async function acquireLock(dir: string, options: LockOptions = {}): Promise<HeldLock> {
  const now = options.now ?? Date.now;
  const owner = options.owner ?? `${safeHost()}:${process.pid}:${randomBytes(6).toString('hex')}`;
  const waitMs = options.waitMs ?? 2 * STALE_LOCK_MS;
  await mkdir(dir, { recursive: true });
  // the owner is written before the generation exists: a reader never sees an empty one
  const ticket = join(dir, `ticket-${safeHost()}-${process.pid}-${randomBytes(6).toString('hex')}`);
  await writeFile(ticket, owner);
  const deadline = now() + waitMs;
  try {
    for (let pause = 1; ; pause = Math.min(pause * 2, 20)) {
      const { top, free } = await generations(dir);
      if (top === 0 || free.has(top) || (await abandoned(join(dir, name(top)), now))) {
        const mine = top + 1;
        if (await created(ticket, join(dir, name(mine)))) {
          const after = await generations(dir);
          // `<mine>.free` beside ours: a stale reading, and generation `mine` was taken and released
          // since. The link succeeded only because a released generation has another name; holding it
          // would let a waiter that reads `<mine>.free` take `mine + 1` while we hold. Ours goes.
          if (after.free.has(mine)) {
            await rm(join(dir, name(mine)), { force: true });
            continue;
          }
          if (after.top === mine) {
            await clearBelow(dir, mine);
            return { release: () => rename(join(dir, name(mine)), join(dir, `${name(mine)}.free`)) };
          }
          continue; // a stale reading: a later generation holds (or held) the lock
        }
        continue;
      }
      if (now() > deadline) {
        throw new ExporterError(
          'WRITE_FAILED',
          `the lock ${dir} stayed held for more than ${waitMs / 1000} s`,
        );
      }
      await sleep(pause);
    }
  } finally {
    await rm(ticket, { force: true });
  }
}

async function generations(dir: string): Promise<{ top: number; free: Set<number> }> {
  let top = 0;
  const free = new Set<number>();
  for (const entry of await readdir(dir)) {
    const gen = entry.replace(/\.free$/, '');
    if (!GEN.test(gen)) continue;
    top = Math.max(top, Number(gen));
    if (gen !== entry) free.add(Number(gen));
  }
  return { top, free };
}

async function created(ticket: string, path: string): Promise<boolean> {
  try {
    await link(ticket, path);
    return true;
  } catch (err: unknown) {
    if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'EEXIST') return false;
    throw err;
  }
}

/** A generation whose owner is a dead process of this host, or that is older than the stale age. */
async function abandoned(path: string, now: () => number): Promise<boolean> {
  const owner = await readFile(path, 'utf8').catch(() => null);
  if (owner === null) return false; // cleared meanwhile: read the generations again
  const [host, pid] = owner.split(':');
  if (host === safeHost() && Number(pid) > 0 && !alive(Number(pid))) return true;
  const age = await stat(path).then(
    (s) => now() - s.mtimeMs,
    () => 0,
  );
  return age > STALE_LOCK_MS;
}

/** Removes the generations below the holder's, and the tickets of killed processes of this host. */
async function clearBelow(dir: string, mine: number): Promise<void> {
  for (const entry of await readdir(dir)) {
    const gen = entry.replace(/\.free$/, '');
    const ticket = /^ticket-(.+)-(\d+)-[0-9a-f]{12}$/.exec(entry);
    const dead = ticket !== null && ticket[1] === safeHost() && !alive(Number(ticket[2]));
    if ((GEN.test(gen) && Number(gen) < mine) || dead) await rm(join(dir, entry), { force: true });
  }
}
