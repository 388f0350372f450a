/**
 * The Lambda bundles map their stack traces through their source map at the first trace
 * (functions/handlers/stack-traces.ts) instead of at every cold start (`--enable-source-maps`). For any
 * call chain, the trace must read exactly as the Lambda runtime's Node (22, from test/node22) writes it
 * with `--enable-source-maps`, and importing the bundle must not read the map.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect } from 'vitest';

const NODE22 = join(
  import.meta.dirname,
  '..',
  'node22',
  'node_modules',
  `node-${process.platform}-${process.arch}`,
  'bin',
  'node',
);
const INSTALL = "npm ci --prefix test/node22 (the Lambda runtime's Node 22, from the npm registry)";
const missing = !existsSync(NODE22);
if (missing && process.env.CI === 'true') throw new Error(`No Node 22 under test/node22: ${INSTALL}`);

const dir = mkdtempSync(join(tmpdir(), 'stack-traces-'));
const bundle = join(dir, 'index.mjs');
const runner = join(dir, 'runner.mjs');

beforeAll(async () => {
  await build({
    entryPoints: [join(import.meta.dirname, 'fixtures', 'stack-chain.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'error',
  });
  writeFileSync(
    runner,
    `const { stackOf } = await import(${JSON.stringify(new URL(`file://${bundle}`).href)});
const cases = JSON.parse(process.env.CHAINS);
const out = [];
for (const c of cases) out.push(await stackOf(c.chain, c.message, c.node));
process.stdout.write(JSON.stringify(out));`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function stacks(chains: { chain: string[]; message: string; node: boolean }[], flags: string[]): string[] {
  const r = spawnSync(NODE22, [...flags, runner], {
    encoding: 'utf8',
    env: { ...process.env, CHAINS: JSON.stringify(chains), NODE_OPTIONS: '' },
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as string[];
}

const step = fc.constantFrom('declared', 'arrow', 'method', 'static', 'callback', 'async');
const chains = fc.array(
  fc.record({
    chain: fc.array(step, { minLength: 0, maxLength: 6 }),
    message: fc.string({ maxLength: 20 }),
    node: fc.boolean(),
  }),
  { minLength: 1, maxLength: 25 },
);

describe.skipIf(missing)(
  `stack traces of a bundle, mapped at the first trace${missing ? ` (skipped: ${INSTALL})` : ''}`,
  () => {
    test.prop([chains], { numRuns: 8, seed: 29 })(
      'read exactly as --enable-source-maps writes them, for any call chain',
      (cases) => {
        const lazy = stacks(cases, []);
        const node = stacks(cases, ['--enable-source-maps']);
        expect(lazy).toEqual(node);
        // and they are mapped: the fixture's TypeScript names its frames, not the minified bundle
        for (const s of lazy) expect(s).toMatch(/stack-chain\.ts:\d+:\d+\)/);
      },
    );

    test('importing the bundle does not read its map; a trace without one stays as V8 writes it', () => {
      renameSync(`${bundle}.map`, `${bundle}.map.away`);
      try {
        // with no map at import, nothing is installed: the trace names the bundle
        const [s] = stacks([{ chain: ['arrow'], message: 'x', node: false }], []);
        expect(s).toMatch(/index\.mjs:\d+:\d+/);
        expect(s).not.toMatch(/stack-chain\.ts/);
      } finally {
        renameSync(`${bundle}.map.away`, `${bundle}.map`);
      }
    });
  },
);
