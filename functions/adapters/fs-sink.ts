/**
 * The local-folder sink (`--out DIR`): same key layout as S3. Each object is streamed to a temporary
 * file in its target folder and renamed into place on close, so a reader never sees half a file and
 * an aborted object leaves nothing behind. bytes and sha256 are computed while streaming.
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ExporterError } from '#core/errors';
import type { ObjectWriter, Sink, WrittenObject } from '#core/sink';

const TEMP_MARK = '.tmp-';

export function createFsSink(root: string): Sink {
  const base = resolve(root);
  const pathOf = (key: string): string => {
    const path = resolve(base, ...key.split('/'));
    if (path !== base && !path.startsWith(base + sep)) {
      throw new ExporterError('WRITE_FAILED', `key "${key}" escapes the output folder`);
    }
    return path;
  };

  return {
    locate: (key) => pathOf(key),
    openWriter: (key) => fileWriter(key, pathOf(key)),
    async putObject(key, body) {
      const w = fileWriter(key, pathOf(key));
      try {
        await w.write(typeof body === 'string' ? new TextEncoder().encode(body) : body);
        return await w.close();
      } catch (err: unknown) {
        await w.abort();
        throw err;
      }
    },
    async putIfAbsent(key, body) {
      // written whole to a temporary file, then hard-linked into place: link() fails when the name exists
      const path = pathOf(key);
      const temp = join(
        dirname(path),
        `.${path.split(sep).pop() ?? 'object'}${TEMP_MARK}${randomBytes(6).toString('hex')}`,
      );
      const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
      await mkdir(dirname(path), { recursive: true });
      const h = await open(temp, 'wx');
      try {
        await h.writeFile(bytes);
        await h.sync();
      } finally {
        await h.close();
      }
      try {
        await link(temp, path);
      } catch (err: unknown) {
        if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'EEXIST') return null;
        throw err;
      } finally {
        await rm(temp, { force: true });
      }
      return { key, bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
    },
    async getObject(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (err: unknown) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    async list(prefix) {
      // Walk only below the prefix's folder, not the whole output tree.
      const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
      const files = await walk(folder === '' ? base : pathOf(folder));
      return files
        .map((p) => relative(base, p).split(sep).join('/'))
        .filter((k) => k.startsWith(prefix) && !k.split('/').pop()?.includes(TEMP_MARK))
        .sort();
    },
    async deleteObjects(keys) {
      await Promise.all(keys.map((k) => rm(pathOf(k), { force: true })));
    },
  };
}

function fileWriter(key: string, path: string): ObjectWriter {
  const temp = join(
    dirname(path),
    `.${path.split(sep).pop() ?? 'object'}${TEMP_MARK}${randomBytes(6).toString('hex')}`,
  );
  const hash = createHash('sha256');
  let bytes = 0;
  const ready = (async () => {
    await mkdir(dirname(path), { recursive: true });
    return open(temp, 'w');
  })();
  ready.catch(() => undefined);

  return {
    async write(chunk) {
      const h = await ready;
      hash.update(chunk);
      bytes += chunk.byteLength;
      await h.write(chunk);
    },
    async close(): Promise<WrittenObject> {
      const h = await ready;
      await h.close();
      await rename(temp, path);
      return { key, bytes, sha256: hash.digest('hex') };
    },
    async abort() {
      try {
        await (await ready).close();
      } catch {
        // already closed or never opened
      }
      await rm(temp, { force: true }).catch(() => undefined);
    },
  };
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

function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === 'ENOENT';
}
