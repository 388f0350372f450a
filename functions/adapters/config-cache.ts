/**
 * Validated configs kept on disk for the CLI's next start (docs/performance.md, "Start"), as Node keeps
 * compiled code: a scheduled `run` reads the same `reports.yaml` every time, and parsing and
 * validating it — loading the YAML parser, building the config schema, parsing, validating — was
 * ~50 ms of every start before its first request. An entry is the config validated from one exact
 * text by one build of the CLI (on one Node: the schema asks its ICU whether a timezone exists):
 * - its name is the SHA-256 of the build's id and the text, and it holds the text itself, which must
 *   match to the character: an edit (or another build) is a miss, and a miss parses and validates as
 *   before, then writes the entry;
 * - only a valid config is kept (an invalid one throws before anything is written), so every error
 *   and hint still comes from the parser and the schema;
 * - it lives in the user's own cache folder (`$XDG_CACHE_HOME` or `~/.cache`, then
 *   `report-exporter/config/`), made `0700`, each entry `0600` and written whole (a temporary file
 *   renamed); an entry that is not the user's own, or that others may write, is ignored;
 * - a folder that cannot be made or read leaves loading as it was: the cache never fails a command.
 * `REPORT_EXPORTER_CONFIG_CACHE=0` turns it off. The config holds no secret (credentials are named by
 * their secret's id, never given), so an entry holds nothing the config file does not.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Config } from '#core/config/schema';

export interface ConfigCache {
  /** The config validated from exactly this text by this build, if kept. Never throws. */
  get(text: string): Promise<Config | undefined>;
  /** Keeps `config`, validated from `text`. Never throws. */
  put(text: string, config: Config): Promise<void>;
}

/** Entries kept per folder (the newest); older ones are removed when one is written. */
export const MAX_ENTRIES = 32;
/** A temporary file older than this is a write that died (a killed process): removed. */
const STALE_TEMP_MS = 60_000;
const SUFFIX = '.v8';

interface Entry {
  readonly buildId: string;
  readonly text: string;
  readonly config: Config;
}

export function configCache(dir: string, buildId: string): ConfigCache {
  const fileOf = (text: string) =>
    join(dir, `${createHash('sha256').update(buildId).update('\0').update(text).digest('hex')}${SUFFIX}`);
  return {
    async get(text) {
      let handle: Awaited<ReturnType<typeof open>> | undefined;
      try {
        handle = await open(fileOf(text), 'r');
        if (!trusted(await handle.stat())) return undefined;
        const entry = deserialize(await handle.readFile()) as Partial<Entry> | null;
        return entry?.buildId === buildId && entry.text === text ? entry.config : undefined;
      } catch {
        return undefined;
      } finally {
        await handle?.close().catch(() => undefined);
      }
    },
    async put(text, config) {
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const file = fileOf(text);
        const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
        const entry: Entry = { buildId, text, config };
        await writeFile(temp, serialize(entry), { mode: 0o600, flag: 'wx' });
        await rename(temp, file);
        await prune(dir);
      } catch {
        // no entry: the next start parses and validates, as without a cache
      }
    },
  };
}

/**
 * The cache folder for this environment: undefined when turned off (`REPORT_EXPORTER_CONFIG_CACHE=0`)
 * or when there is no home to put it in.
 */
export function configCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.REPORT_EXPORTER_CONFIG_CACHE === '0') return undefined;
  const xdg = env.XDG_CACHE_HOME;
  let base: string;
  if (xdg !== undefined && isAbsolute(xdg)) base = xdg;
  else {
    let home = env.HOME;
    try {
      home ||= homedir();
    } catch {
      return undefined;
    }
    if (!home) return undefined;
    base = join(home, '.cache');
  }
  return join(base, 'report-exporter', 'config');
}

/** The user's own file, which no one else may write (POSIX; elsewhere, a file). */
function trusted(st: Stats): boolean {
  if (!st.isFile()) return false;
  const uid = process.getuid?.();
  return uid === undefined || (st.uid === uid && (st.mode & 0o022) === 0);
}

/** Keeps the newest `MAX_ENTRIES` entries, and removes temporary files left by writes that died. */
async function prune(dir: string): Promise<void> {
  const names = await readdir(dir);
  const now = Date.now();
  const entries: { name: string; mtimeMs: number }[] = [];
  for (const name of names) {
    const st = await stat(join(dir, name)).catch(() => undefined);
    if (st === undefined) continue;
    if (name.endsWith('.tmp')) {
      if (now - st.mtimeMs > STALE_TEMP_MS) await rm(join(dir, name), { force: true });
    } else if (name.endsWith(SUFFIX)) entries.push({ name, mtimeMs: st.mtimeMs });
  }
  entries.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { name } of entries.slice(MAX_ENTRIES)) await rm(join(dir, name), { force: true });
}
