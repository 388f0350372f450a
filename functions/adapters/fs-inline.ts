/**
 * The folder sink's small file-system calls (`./fs-sink`, `./fs-conditional`, `./fs-lock`,
 * `./fs-temp`), made on the calling thread: each is `node:fs`'s synchronous call behind the signature
 * of its `node:fs/promises` twin, so a failure is still a rejection, never a throw, and callers read
 * as before.
 *
 * Committing one report into a folder takes ~150 of these calls, one after the other: the lease and
 * manifest compare-and-swaps, their lock's generations, the staged files' moves and folders, the
 * `_SUCCESS` markers. Through `node:fs/promises` each one is a round trip to libuv's thread pool and
 * back, which on two busy cores took ~0.3 ms where the call itself takes microseconds. Done here, a
 * 16k-row export through the CLI went from its last page to its exit in 66 ms instead of 86, and
 * took 0.726 s against 0.753 (medians of 20, interleaved; docs/performance.md, "the folder sink's
 * small calls"). A call blocks the thread for its own time only, microseconds on a local disk; the
 * part files' bytes are still written through a `FileHandle`, off the thread.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';

/**
 * `sync` with the signature of its `node:fs/promises` twin `P`: the same arguments and result, and a
 * throw becomes a rejected promise.
 */
function inline<P extends (...args: never[]) => Promise<unknown>>(sync: (...args: never[]) => unknown): P {
  return (async (...args: never[]) => sync(...args)) as unknown as P;
}

export const link = inline<typeof fsp.link>(fs.linkSync);
export const mkdir = inline<typeof fsp.mkdir>(fs.mkdirSync);
export const readdir = inline<typeof fsp.readdir>(fs.readdirSync);
export const readFile = inline<typeof fsp.readFile>(fs.readFileSync);
export const rename = inline<typeof fsp.rename>(fs.renameSync);
const rmInline = inline<typeof fsp.rm>(fs.rmSync);
/**
 * A recursive removal goes through `node:fs/promises` itself: on Node 24 and 26 (not 20 or 22),
 * `rmSync` with `recursive` and `force` treats a path under a file as absent (it resolves) where
 * `fsp.rm` rejects with `ENOTDIR`. The sink removes recursively only the temporary folders of dead
 * processes (`./fs-temp`), which a normal run does not have, so the round trip costs nothing.
 */
export const rm: typeof fsp.rm = (path, options) =>
  options?.recursive === true ? fsp.rm(path, options) : rmInline(path, options);
export const rmdir = inline<typeof fsp.rmdir>(fs.rmdirSync);
export const stat = inline<typeof fsp.stat>(fs.statSync);
export const writeFile = inline<typeof fsp.writeFile>(fs.writeFileSync);
