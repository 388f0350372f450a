/**
 * Conditional writes in a folder, safe between processes of one host (and on file systems that honour
 * exclusive create):
 * - create-if-absent (`ifNoneMatch: '*'`): the body is written to a temporary file and hard-linked to
 *   the target, which fails when the target exists — the whole file appears at once, or not at all.
 * - compare-and-swap (`ifMatch`): under a short lock (`./fs-lock`, in `.tmp/lock-gens/`), the current
 *   file is compared with the expected tag (sha256) and replaced by rename only when it still matches.
 *   The target is never missing, not even for an instant. A lock left by a killed process of this host
 *   is taken over at once, any other once it is older than `STALE_LOCK_MS` (a lock is held for
 *   microseconds), and taking over never removes a lock someone else has just taken. Swaps of one
 *   path within this process queue in memory, so hundreds of concurrent writers do not poll files.
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { WriteCondition } from '#core/sink';
import { link, mkdir, readFile, rename, rm, writeFile } from './fs-inline';
import { acquireLock } from './fs-lock';
import { TEMP_ROOT } from './fs-temp';

export interface ConditionalPut {
  readonly base: string;
  readonly path: string;
  readonly temp: string;
  readonly body: string;
  readonly condition: WriteCondition;
  readonly etagOf: (body: Uint8Array) => string;
}

/** The new tag, or null when the condition did not hold. */
export async function conditionalPut(o: ConditionalPut): Promise<string | null> {
  const bytes = new TextEncoder().encode(o.body);
  await writeFile(o.temp, bytes);
  try {
    await mkdir(dirname(o.path), { recursive: true });
    if ('ifNoneMatch' in o.condition) {
      try {
        await link(o.temp, o.path);
      } catch (err: unknown) {
        if (hasCode(err, 'EEXIST')) return null;
        throw err;
      }
      return o.etagOf(bytes);
    }
    const expected = o.condition.ifMatch;
    return await withLock(lockPath(o.base, o.path), async () => {
      const current = await readFile(o.path).catch(() => null);
      if (current === null || o.etagOf(new Uint8Array(current)) !== expected) return null;
      await rename(o.temp, o.path);
      return o.etagOf(bytes);
    });
  } finally {
    await rm(o.temp, { force: true });
  }
}

/** The lock folder of a swap of `path` (`./fs-lock`: generations, never removed to take over). */
export function lockPath(base: string, path: string): string {
  return join(base, TEMP_ROOT, 'lock-gens', createHash('sha256').update(path).digest('hex').slice(0, 32));
}

/** Swaps of one path in this process, one at a time: in-process waiters queue instead of polling files. */
const queues = new Map<string, Promise<unknown>>();

async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  const before = queues.get(lock) ?? Promise.resolve();
  const mine = before
    .catch(() => undefined)
    .then(async () => {
      const held = await acquireLock(lock);
      try {
        return await fn();
      } finally {
        await held.release();
      }
    });
  queues.set(lock, mine);
  try {
    return await mine;
  } finally {
    if (queues.get(lock) === mine) queues.delete(lock);
  }
}

function hasCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === code;
}
