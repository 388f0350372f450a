/**
 * The local-folder sink (`--out DIR`): same key layout as S3. Each object is streamed to a temporary
 * file under the output root's `.tmp/` folder (see `./fs-temp`) and renamed into place on close, so a
 * reader never sees half a file, an aborted object leaves nothing behind, and no temporary file ever
 * sits in a partition folder. bytes and sha256 are computed while streaming. Conditional writes (the
 * window lease, the window manifest) are in `./fs-conditional`.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ExporterError } from '#core/errors';
import type { ObjectWriter, Sink, WrittenObject } from '#core/sink';
import { conditionalPut } from './fs-conditional';
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from './fs-inline';
import { TEMP_ROOT, type TempArea, tempArea } from './fs-temp';

export function createFsSink(root: string): Sink {
  const base = resolve(root);
  const temps = tempArea(base);
  const pathOf = (key: string): string => {
    const path = resolve(base, ...key.split('/'));
    if (path !== base && !path.startsWith(base + sep)) {
      throw new ExporterError('WRITE_FAILED', `key "${key}" escapes the output folder`);
    }
    return path;
  };
  /** Removes folders left empty by a delete or a move, up to (not including) the output root. */
  const prune = async (path: string): Promise<void> => {
    for (let dir = dirname(path); dir !== base && dir.startsWith(base + sep); dir = dirname(dir)) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty (or already gone)
      }
    }
  };

  return {
    locate: (key) => pathOf(key),
    openWriter: (key) => fileWriter(key, pathOf(key), temps),
    async putObject(key, body) {
      const w = fileWriter(key, pathOf(key), temps);
      try {
        await w.write(typeof body === 'string' ? new TextEncoder().encode(body) : body);
        return await w.close();
      } catch (err: unknown) {
        await w.abort();
        throw err;
      }
    },
    async getObject(key) {
      return readOrNull(pathOf(key));
    },
    async getTagged(key) {
      const body = await readOrNull(pathOf(key));
      return body ? { body, etag: sha256(body) } : null;
    },
    async putIf(key, body, _type, condition) {
      const temp = await temps.path('put');
      return conditionalPut({ base, path: pathOf(key), temp, body, condition, etagOf: sha256 });
    },
    async moveObject(from, to) {
      const target = pathOf(to);
      await mkdir(dirname(target), { recursive: true });
      await rename(pathOf(from), target);
      await prune(pathOf(from));
    },
    async list(prefix) {
      // Walk only below the prefix's folder, not the whole output tree.
      const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
      const files = await walk(folder === '' ? base : pathOf(folder));
      return files
        .map((p) => relative(base, p).split(sep).join('/'))
        .filter((k) => k.startsWith(prefix) && !k.startsWith(`${TEMP_ROOT}/`))
        .sort();
    },
    async ready() {
      try {
        await mkdir(base, { recursive: true });
        const probe = await temps.path('write-check');
        await writeFile(probe, '');
        await rm(probe, { force: true });
      } catch (err: unknown) {
        const code = (err as NodeJS.ErrnoException).code ?? 'error';
        const why = { EACCES: 'permission denied', EPERM: 'not permitted', EROFS: 'read-only file system' };
        throw new ExporterError(
          'USAGE',
          `cannot write to the output folder ${base} (${why[code as keyof typeof why] ?? code}): choose another --out or make it writable`,
          { details: { folder: base, errno: code } },
        );
      }
    },
    async deleteObjects(keys) {
      await Promise.all(
        keys.map(async (k) => {
          await rm(pathOf(k), { force: true });
          await prune(pathOf(k));
        }),
      );
    },
  };
}

function fileWriter(key: string, path: string, temps: TempArea): ObjectWriter {
  const hash = createHash('sha256');
  let bytes = 0;
  const ready = (async () => {
    const temp = await temps.path(path.split(sep).pop() ?? 'object');
    return { temp, handle: await open(temp, 'w') };
  })();
  ready.catch(() => undefined);

  return {
    async write(chunk) {
      const { handle } = await ready;
      hash.update(chunk);
      bytes += chunk.byteLength;
      await handle.write(chunk);
    },
    async close(): Promise<WrittenObject> {
      const { temp, handle } = await ready;
      await handle.close();
      await mkdir(dirname(path), { recursive: true });
      await rename(temp, path);
      return { key, bytes, sha256: hash.digest('hex') };
    },
    async abort() {
      try {
        const { temp, handle } = await ready;
        await handle.close().catch(() => undefined);
        await rm(temp, { force: true });
      } catch {
        // never opened
      }
    },
  };
}

async function readOrNull(path: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (err: unknown) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

function sha256(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

async function walk(dir: string): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err: unknown) {
    if (isNotFound(err)) return [];
    throw err;
  }
  const out: string[] = [];
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

export function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === 'ENOENT';
}
