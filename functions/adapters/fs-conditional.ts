/**
 * Conditional writes in a folder, safe between processes of one host (and on file systems that honour
 * exclusive create):
 * - create-if-absent (`ifNoneMatch: '*'`): the body is written to a temporary file and hard-linked to
 *   the target, which fails when the target exists — the whole file appears at once, or not at all.
 * - compare-and-swap (`ifMatch`): under a short lock file (exclusive create in `.tmp/locks/`), the
 *   current file is compared with the expected tag (sha256) and replaced by rename only when it still
 *   matches. The target is never missing, not even for an instant. A lock holds its owner's process
 *   id: a lock left by a killed process of this host is taken over at once, any other once it is older
 *   than `STALE_LOCK_MS` (a lock is held for microseconds); a writer waits for a held lock until then.
 */
import { createHash } from 'node:crypto';
import { link, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExporterError } from '#core/errors';
import type { WriteCondition } from '#core/sink';
import { alive, TEMP_ROOT } from './fs-temp';

export const STALE_LOCK_MS = 10_000;

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

function lockPath(base: string, path: string): string {
  return join(base, TEMP_ROOT, 'locks', createHash('sha256').update(path).digest('hex').slice(0, 32));
}

async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  await mkdir(dirname(lock), { recursive: true });
  // wait longer than a lock takes to go stale, so a held lock is always taken over before giving up
  const deadline = Date.now() + 2 * STALE_LOCK_MS;
  for (;;) {
    try {
      const file = await open(lock, 'wx');
      try {
        await file.writeFile(String(process.pid));
      } finally {
        await file.close();
      }
      break;
    } catch (err: unknown) {
      if (!hasCode(err, 'EEXIST')) throw err;
      if (await abandoned(lock)) await rm(lock, { force: true });
      else if (Date.now() > deadline) {
        throw new ExporterError(
          'WRITE_FAILED',
          `the lock ${lock} stayed held for more than ${(2 * STALE_LOCK_MS) / 1000} s`,
        );
      } else await sleep(5);
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}

/** Whether a lock's owner is gone: a process of this host that no longer exists, or a lock gone stale. */
async function abandoned(lock: string): Promise<boolean> {
  const owner = Number(await readFile(lock, 'utf8').catch(() => ''));
  if (Number.isInteger(owner) && owner > 0 && !alive(owner)) return true;
  const age = await stat(lock).then(
    (s) => Date.now() - s.mtimeMs,
    () => 0,
  );
  return age > STALE_LOCK_MS;
}

function hasCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === code;
}
