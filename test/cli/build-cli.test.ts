/**
 * The CLI's bundle can be rebuilt while a CLI runs from it (scripts/build-cli.mjs): the launcher
 * rebuilds when a source is newer, and `npm run build`/`prepare` may run beside a scheduled export.
 * A CI run once failed three reports with "Cannot find module dist/chunks/chunk-….mjs" in the
 * encoder worker while a build rewrote dist. So: no file an earlier build wrote disappears, and the
 * entry files are written after every chunk they import.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCli, DIST, STAMP, staleness } from '../../scripts/build-cli.mjs';

const outputs = (): string[] => (JSON.parse(readFileSync(STAMP, 'utf8')) as { outputs: string[] }).outputs;

describe('rebuilding the CLI bundle', () => {
  it('keeps every file the previous build wrote and writes chunks before the entries that import them', async () => {
    await buildCli();
    const before = outputs();
    await buildCli();
    for (const f of before) expect(existsSync(join(DIST, f)), f).toBe(true);
    const after = outputs();
    const mtime = (f: string) => statSync(join(DIST, f)).mtimeMs;
    const lastChunk = Math.max(...after.filter((f) => f.startsWith('chunks/')).map(mtime));
    for (const entry of after.filter((f) => !f.startsWith('chunks/')))
      expect(mtime(entry), entry).toBeGreaterThanOrEqual(lastChunk);
  }, 60_000);

  it('is fresh right after a build: every input it lists is a file of the repository', async () => {
    // a plugin's virtual module (zod's emptied locales) once made every start rebuild the bundle
    await buildCli();
    expect(staleness()).toBeUndefined();
  }, 60_000);
});
