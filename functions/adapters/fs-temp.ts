/**
 * Temporary files of the folder sink live in one hidden folder per process at the output root,
 * `.tmp/{host}-{pid}-{random}/`, never beside their target: a reader's `*` glob over a partition can
 * never match one. A process that dies (`kill -9`) leaves its folder behind; the next sink opened on
 * the same output root removes the folders of processes of this host that no longer exist.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { mkdir, readdir, rm, stat } from './fs-inline';

export const TEMP_ROOT = '.tmp';

export interface TempArea {
  /** A fresh temporary path (its folder exists). */
  path(name: string): Promise<string>;
}

export function tempArea(base: string): TempArea {
  const root = join(base, TEMP_ROOT);
  const own = join(root, `${safeHost()}-${process.pid}-${randomBytes(4).toString('hex')}`);
  let ready: Promise<void> | undefined;
  return {
    async path(name) {
      ready ??= (async () => {
        await sweepDead(root);
        await mkdir(own, { recursive: true });
      })();
      await ready;
      return join(own, `${randomBytes(6).toString('hex')}-${name}`);
    },
  };
}

/** Removes the temporary folders of dead processes of this host. Never throws. */
export async function sweepDead(root: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return 0;
  }
  let removed = 0;
  await sweepLocks(join(root, 'locks'));
  for (const name of names) {
    const m = /^(.+)-(\d+)-[0-9a-f]{8}$/.exec(name);
    if (!m || m[1] !== safeHost() || alive(Number(m[2]))) continue;
    await rm(join(root, name), { recursive: true, force: true }).catch(() => undefined);
    removed += 1;
  }
  return removed;
}

/** Lock files of `./fs-conditional` left by a killed process (a lock is held for microseconds). */
async function sweepLocks(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(dir, name);
    const age = await stat(path).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > 10_000) await rm(path, { force: true }).catch(() => undefined);
  }
}

/** Whether a process of this host with that id exists (EPERM: it exists, owned by someone else). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err: unknown) {
    return typeof err === 'object' && err !== null && 'code' in err && err.code === 'EPERM';
  }
}

export function safeHost(): string {
  return hostname().replace(/[^A-Za-z0-9.]/g, '_') || 'host';
}
