/**
 * The CLI's cache of validated configs (functions/adapters/config-cache.ts): what `loadConfig` returns
 * through it is what parsing and validating the text returns, for any text; an entry serves only its
 * own text and build; an entry the user does not own, a broken entry or a folder that cannot be
 * written changes nothing but speed.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { configCache, configCacheDir, MAX_ENTRIES } from '#adapters/config-cache';
import { loadConfig } from '#adapters/config-file';
import { parseConfig } from '#core/config/load';

const ROOT = new URL('../..', import.meta.url).pathname;
const EXAMPLE = readFileSync(join(ROOT, 'reports.yaml'), 'utf8');
const base = mkdtempSync(join(tmpdir(), 'config-cache-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
/** A new folder under the test's own. */
const fresh = (name: string) => mkdtempSync(join(base, `${name}-`));

/** What parsing the text gives: the config, or the error's message. */
function parsed(text: string, source: string): { config: unknown } | { error: string } {
  try {
    return { config: parseConfig(text, source) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** `loadConfig` of the text through the cache in `dir`, as the CLI calls it. */
async function loaded(
  dir: string,
  text: string,
  buildId = 'build-a',
): Promise<{ config: unknown } | { error: string }> {
  const file = join(dir, 'reports.yaml');
  writeFileSync(file, text);
  try {
    return { config: await loadConfig(file, configCache(join(dir, 'cache'), buildId)) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

const entries = (dir: string) => {
  try {
    return readdirSync(join(dir, 'cache')).filter((f) => f.endsWith('.v8'));
  } catch {
    return [];
  }
};

/** Texts near the example config: its free text replaced by any string, schedules left out, bytes broken. */
const titleArb = fc.string({ unit: 'grapheme', maxLength: 40 });
const textArb = fc
  .record({
    title: titleArb,
    description: titleArb,
    dropMonthly: fc.boolean(),
    comment: fc.string({ maxLength: 20 }),
    cut: fc.option(fc.nat({ max: EXAMPLE.length - 1 }), { freq: 3 }),
    junk: fc.string({ maxLength: 3 }),
  })
  .map(({ title, description, dropMonthly, comment, cut, junk }) => {
    let text = EXAMPLE.replace('title: Weekly campaign performance', `title: ${JSON.stringify(title)}`)
      .replace(/description: Instagram campaigns[^\n]*/, `description: ${JSON.stringify(description)}`)
      .concat(`# ${comment.replace(/[\r\n]/g, ' ')}\n`);
    if (dropMonthly) text = text.replace(/ {2}- id: monthly-overview[\s\S]*?(?=\n {2}- id: |$)/, '');
    // a few characters put in anywhere: mostly a broken config, sometimes still a valid one
    if (cut !== null) text = text.slice(0, cut) + junk + text.slice(cut);
    // as a UTF-8 file holds it: a cut between the halves of a surrogate pair leaves lone halves, which
    // the file stores as U+FFFD (found at 1,000 runs: the test compared the file with a text no file holds)
    return Buffer.from(text, 'utf8').toString('utf8');
  });

describe('loadConfig through the config cache', () => {
  it('returns what parsing returns, for any text: the first time (a miss) and again (a hit)', async () => {
    await fc.assert(
      fc.asyncProperty(textArb, async (text) => {
        const dir = fresh('prop');
        const want = parsed(text, join(dir, 'reports.yaml'));
        expect(await loaded(dir, text)).toStrictEqual(want);
        // only a valid config is kept: an invalid one is parsed (and refused) every time
        expect(entries(dir)).toHaveLength('config' in want ? 1 : 0);
        expect(await loaded(dir, text)).toStrictEqual(want);
      }),
      { numRuns: 60 },
    );
  });

  it('a hit does not parse: the entry is what is returned', async () => {
    const dir = fresh('hit');
    const cache = configCache(join(dir, 'cache'), 'build-a');
    const file = join(dir, 'reports.yaml');
    writeFileSync(file, EXAMPLE);
    const config = await loadConfig(file, cache);
    // an entry planted for this exact text and build is served as it is
    await cache.put(EXAMPLE, { ...config, api: { ...config.api, pageSize: 7 } });
    expect((await loadConfig(file, cache)).api.pageSize).toBe(7);
  });

  it('an entry serves only its own text and its own build', async () => {
    const dir = fresh('keys');
    const cache = configCache(join(dir, 'cache'), 'build-a');
    const config = parseConfig(EXAMPLE);
    await cache.put(EXAMPLE, config);
    expect(await cache.get(EXAMPLE)).toStrictEqual(config);
    expect(await cache.get(`${EXAMPLE} `)).toBeUndefined();
    expect(await cache.get(EXAMPLE.replace('pageSize: 500', 'pageSize: 501'))).toBeUndefined();
    expect(await configCache(join(dir, 'cache'), 'build-b').get(EXAMPLE)).toBeUndefined();
  });

  it('writes its folder 0700 and each entry 0600, and ignores an entry others may write', async () => {
    const dir = fresh('modes');
    const cacheDir = join(dir, 'cache');
    const cache = configCache(cacheDir, 'build-a');
    await cache.put(EXAMPLE, parseConfig(EXAMPLE));
    const [entry] = entries(dir);
    expect(entry).toBeDefined();
    const path = join(cacheDir, entry as string);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    chmodSync(path, 0o666);
    expect(await cache.get(EXAMPLE)).toBeUndefined();
  });

  it('a broken entry is a miss, and the next parse writes it again', async () => {
    const dir = fresh('broken');
    expect('config' in (await loaded(dir, EXAMPLE))).toBe(true);
    const [entry] = entries(dir);
    const path = join(dir, 'cache', entry as string);
    writeFileSync(path, readFileSync(path).subarray(0, 40));
    const cache = configCache(join(dir, 'cache'), 'build-a');
    expect(await cache.get(EXAMPLE)).toBeUndefined();
    expect(await loaded(dir, EXAMPLE)).toStrictEqual(parsed(EXAMPLE, join(dir, 'reports.yaml')));
    expect(await cache.get(EXAMPLE)).toStrictEqual(parseConfig(EXAMPLE));
  });

  it('a folder that cannot be made changes nothing but speed', async () => {
    const dir = fresh('blocked');
    // a file where the cache folder should be
    writeFileSync(join(dir, 'cache'), '');
    expect(await loaded(dir, EXAMPLE)).toStrictEqual(parsed(EXAMPLE, join(dir, 'reports.yaml')));
    expect(await loaded(dir, EXAMPLE)).toStrictEqual(parsed(EXAMPLE, join(dir, 'reports.yaml')));
  });

  it(`keeps the newest ${MAX_ENTRIES} entries and removes temporary files of writes that died`, async () => {
    const dir = fresh('prune');
    const cacheDir = join(dir, 'cache');
    mkdirSync(cacheDir, { recursive: true });
    const dead = join(cacheDir, 'x.v8.123-abcd.tmp');
    writeFileSync(dead, '');
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(dead, old, old);
    const cache = configCache(cacheDir, 'build-a');
    const config = parseConfig(EXAMPLE);
    const texts = Array.from({ length: MAX_ENTRIES + 3 }, (_, i) => `${EXAMPLE}# ${i}\n`);
    const seen = new Set<string>();
    const first: string[] = [];
    for (const [i, text] of texts.entries()) {
      await cache.put(text, config);
      // each entry's mtime a second after the one before, whatever the file system's resolution
      for (const f of readdirSync(cacheDir).filter((name) => name.endsWith('.v8') && !seen.has(name))) {
        seen.add(f);
        if (i < 3) first.push(f);
        const when = new Date(Date.now() - (texts.length - i) * 1000);
        utimesSync(join(cacheDir, f), when, when);
      }
    }
    expect(first).toHaveLength(3);
    expect(entries(dir).filter((f) => first.includes(f))).toEqual([]);
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(entries(dir)).toHaveLength(MAX_ENTRIES);
  });
});

describe('configCacheDir', () => {
  it('is under XDG_CACHE_HOME when set, else ~/.cache; REPORT_EXPORTER_CONFIG_CACHE=0 turns it off', () => {
    expect(configCacheDir({ XDG_CACHE_HOME: '/c' })).toBe('/c/report-exporter/config');
    expect(configCacheDir({ HOME: '/h' })).toBe('/h/.cache/report-exporter/config');
    // a relative XDG_CACHE_HOME is invalid by the spec: ignored
    expect(configCacheDir({ XDG_CACHE_HOME: 'rel', HOME: '/h' })).toBe('/h/.cache/report-exporter/config');
    expect(configCacheDir({ XDG_CACHE_HOME: '/c', REPORT_EXPORTER_CONFIG_CACHE: '0' })).toBeUndefined();
  });
});
