#!/usr/bin/env node
/**
 * `report-exporter`: runs the prebuilt bundle `dist/cli.mjs` (scripts/build-cli.mjs, built by `npm ci`
 * through `prepare`), as the Lambdas run theirs, so no TypeScript is compiled at start.
 *
 * The bundle is kept in step with the sources: when a file it was built from (dist/cli-inputs.json) is
 * newer than its build, or it is missing, it is rebuilt first (a few seconds; said on a terminal).
 * Without esbuild to rebuild it (an install without dev dependencies) — or with
 * REPORT_EXPORTER_FROM_SOURCE=1 — the TypeScript sources run through tsx instead, which is slower
 * to start, and it says so.
 */
import module from 'node:module';
import { pathToFileURL } from 'node:url';
import { BUNDLE, buildCli, staleness } from '../scripts/build-cli.mjs';
import { limitInlining } from './inlining.mjs';
import { capYoungGeneration } from './young-generation.mjs';

// Node ≥ 22.1 keeps V8's compiled code of the modules loaded from here on in a cache on disk (the OS
// temp dir, or NODE_COMPILE_CACHE), so a later start skips compiling the bundle: ~30 ms of CPU of each
// start (docs/performance.md, "Start"). Node 20 has no such cache; a cache that cannot be written
// (a read-only temp dir) only leaves compiling as it was.
try {
  module.enableCompileCache?.();
} catch {
  // no cache: compiled as before
}

/**
 * Commands that export, whose memory the young-generation cap is for (./young-generation.mjs), and
 * whose short runs the inlining limit is for (./inlining.mjs).
 */
const EXPORTS = new Set(['run', 'backfill', 'demo']);
if (EXPORTS.has(process.argv[2] ?? '')) {
  capYoungGeneration();
  limitInlining();
}

const bundle = pathToFileURL(BUNDLE).href;

async function canBuild() {
  try {
    await import('esbuild');
    return true;
  } catch {
    return false;
  }
}

async function rebuild(why) {
  let ms;
  try {
    ms = await buildCli();
  } catch {
    // esbuild has printed what is wrong in which source file
    process.stderr.write(`report-exporter: ${why}, and rebuilding it failed (above)\n`);
    process.exit(1);
  }
  if (process.stderr.isTTY) process.stderr.write(`report-exporter: ${why}: rebuilt it (${ms} ms)\n`);
}

async function fromSource(why) {
  process.stderr.write(
    `report-exporter: ${why}; running the TypeScript sources through tsx (a slower start). ` +
      'Build the bundle with `npm run build` (esbuild, a dev dependency).\n',
  );
  const { register } = await import('tsx/esm/api');
  register();
  await import('../functions/cli/main.ts');
}

if (process.env.REPORT_EXPORTER_FROM_SOURCE === '1') {
  await fromSource('REPORT_EXPORTER_FROM_SOURCE=1');
} else {
  const why = staleness();
  if (why === undefined) await import(bundle);
  else if (await canBuild()) {
    await rebuild(why);
    await import(bundle);
  } else await fromSource(`${why} and esbuild is not installed to rebuild it`);
}
