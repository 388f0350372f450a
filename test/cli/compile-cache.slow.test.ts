/**
 * On Node ≥ 22.1 the launcher turns on Node's compile cache (bin/report-exporter.mjs), so a start after
 * the first skips compiling the bundle; a cache that cannot be written changes nothing else. Run with
 * the Node 22 of test/node22 (`npm ci --prefix test/node22`; CI installs it before the slow tests).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const NODE22 = join(ROOT, 'test/node22/node_modules', `node-${process.platform}-${process.arch}`, 'bin/node');
const MISSING = 'no Node 22 under test/node22: run "npm ci --prefix test/node22"';
const dir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function need(ctx: { skip: (note?: string) => void }): void {
  if (existsSync(NODE22)) return;
  if (process.env.CI === 'true') throw new Error(MISSING);
  ctx.skip(MISSING);
}

/** `report-exporter --help` under Node 22 with `TMPDIR` (where the cache goes by default) set. */
async function help(tmp: string): Promise<string> {
  // without NODE_COMPILE_CACHE, which would turn the cache on by itself
  const { NODE_COMPILE_CACHE: _, ...rest } = process.env;
  const env = { ...rest, TMPDIR: tmp };
  const out = await promisify(execFile)(NODE22, [join(ROOT, 'bin/report-exporter.mjs'), '--help'], { env });
  return out.stdout;
}

describe('the compile cache (Node 22)', () => {
  it('is written on the first start, in the OS temp dir', async (ctx) => {
    need(ctx);
    const tmp = join(dir, 'writable');
    mkdirSync(tmp);
    expect(await help(tmp)).toContain('Usage: report-exporter');
    expect(readdirSync(join(tmp, 'node-compile-cache')).length).toBeGreaterThan(0);
  });

  it('a temp dir that cannot hold it changes nothing else', async (ctx) => {
    need(ctx);
    // a file where the temp dir should be: no directory can be made under it
    const file = join(dir, 'not-a-dir');
    writeFileSync(file, '');
    expect(await help(join(file, 'tmp'))).toBe(await help(dir));
  });
});
