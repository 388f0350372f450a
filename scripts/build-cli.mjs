#!/usr/bin/env node
/**
 * Builds the CLI's bundle, `dist/cli.mjs`, and its encoder worker's, `dist/encoder-worker.mjs`, with
 * esbuild — as the CDK app bundles the Lambdas — so `report-exporter` starts without compiling
 * TypeScript. `npm ci` runs it (`prepare`); `bin/report-exporter.mjs` runs it again when a source is
 * newer than the bundle.
 *
 * Beside the bundles, `dist/cli-inputs.json` lists the files written and the repository files they were
 * built from and when the build started: the launcher's freshness check stats those files, nothing else.
 *
 *   node scripts/build-cli.mjs             (npm run build)
 *   node scripts/build-cli.mjs --if-stale  only when `staleness()` finds a reason (the tests' setup)
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, 'dist');
export const STAMP = join(DIST, 'cli-inputs.json');
export const BUNDLE = join(DIST, 'cli.mjs');
/** The built-in shims the Lambda bundles take (BUILTIN_SHIMS), aliased in the CLI's too. */
const SHIMS = 'infra/constructs/builtin-shims.json';

/**
 * Why `dist/cli.mjs` cannot be run as it is — missing, or a file it was built from changed or went
 * away since its build started — or undefined when it can. Stats only the files the stamp lists.
 */
export function staleness() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
    for (const out of stamp.outputs) statSync(join(DIST, out));
  } catch {
    return 'dist/cli.mjs is not built';
  }
  for (const input of stamp.inputs) {
    let mtime;
    try {
      mtime = statSync(join(ROOT, input)).mtimeMs;
    } catch {
      return `${input}, which dist/cli.mjs was built from, is gone`;
    }
    if (mtime >= stamp.started) return `${input} is newer than dist/cli.mjs`;
  }
  return undefined;
}

/**
 * Builds both bundles and the stamp. Safe to run from several processes at once (tests spawning the
 * CLI right after a source changed) and while a CLI runs: every file is written to a temporary name
 * and renamed, chunks before the entries that import them, and no file a running CLI may import is
 * removed (older chunks are pruned after an hour).
 * Returns the build's wall time in ms.
 */
export async function buildCli() {
  const { build } = await import('esbuild');
  const started = Date.now();
  const result = await build({
    absWorkingDir: ROOT,
    // the pool starts `encoder-worker.mjs` when it sits beside the bundle (adapters/encoder-pool.ts):
    // the worker loads the encoder alone, not the whole CLI
    entryPoints: { cli: 'functions/cli/main.ts', 'encoder-worker': 'functions/adapters/encoder-pool.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    mainFields: ['module', 'main'],
    // `#http` is functions/adapters/http-node.ts, on node:http: the undici package (~0.5 MB of
    // JavaScript) cost ~35–40 ms of CPU to compile and evaluate before an export's first request on
    // Node 20, node:http ~5 ms (docs/performance.md, "Start")
    conditions: ['cli'],
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    legalComments: 'linked',
    // CommonJS dependencies (the AWS SDK's) call require() for built-ins; ESM output needs one
    banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
    // what a command needs only sometimes (the AWS SDK: functions/cli/aws.ts) is a chunk of its own,
    // read from disk only when imported
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outdir: DIST,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    write: false,
    logLevel: 'warning',
    plugins: [noZodLocales],
    // node:http and node:https without an ES import, through the Lambda bundles' shims (BUILTIN_SHIMS,
    // infra/constructs/exporter-function.ts): on Node 22 an ES import of node:http reads its
    // WebSocket, CloseEvent and MessageEvent getters, which load Node's internal undici, ~19 ms
    // before an export's first request (docs/performance.md, "Start")
    alias: JSON.parse(readFileSync(join(ROOT, SHIMS), 'utf8')),
    // keys the CLI's cache of validated configs (functions/cli/config-cache.ts) to these sources
    define: { __CLI_BUILD_ID__: JSON.stringify(sourcesId()) },
  });
  mkdirSync(DIST, { recursive: true });
  const put = (file, contents) => {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, contents);
    renameSync(tmp, file);
  };
  // chunks before the entry files that import them, the stamp last: a CLI starting while this build
  // writes sees either the old entry (whose chunks stay) or the new one with every chunk in place
  const entry = (f) => !relative(DIST, f.path).startsWith('chunks');
  for (const out of result.outputFiles.filter((f) => !entry(f))) put(out.path, out.contents);
  for (const out of result.outputFiles.filter(entry)) put(out.path, out.contents);
  const inputs = Object.keys(result.metafile.inputs)
    // files only: not node_modules, not a plugin's virtual module (`empty:zod-locales`)
    .filter((f) => !f.includes('node_modules/') && !/^[a-z-]+:/.test(f))
    .concat('package.json', 'package-lock.json', 'scripts/build-cli.mjs', SHIMS)
    .map((f) => relative(ROOT, resolve(ROOT, f)));
  const outputs = result.outputFiles.map((f) => relative(DIST, f.path)).filter((f) => f.endsWith('.mjs'));
  put(
    STAMP,
    `${JSON.stringify({ started, outputs: outputs.sort(), inputs: [...new Set(inputs)].sort() }, null, 1)}\n`,
  );
  pruneChunks(new Set(result.outputFiles.map((f) => f.path)));
  return Date.now() - started;
}

/**
 * A hash of what a build is made from: every file under functions/, the package manifest and lock
 * (the dependencies' versions), this script and the built-in shims it aliases. Two builds of the
 * same sources get the same id.
 */
function sourcesId() {
  const hash = createHash('sha256');
  const files = readdirSync(join(ROOT, 'functions'), { recursive: true })
    .map((f) => join('functions', String(f)))
    .filter((f) => statSync(join(ROOT, f)).isFile())
    .concat('package.json', 'package-lock.json', 'scripts/build-cli.mjs', SHIMS)
    .sort();
  for (const f of files)
    hash
      .update(f)
      .update('\0')
      .update(readFileSync(join(ROOT, f)))
      .update('\0');
  return hash.digest('hex').slice(0, 32);
}

/**
 * zod re-exports every message locale (~60 languages, ~200 KB of the bundle) as `z.locales`, a
 * namespace esbuild keeps whole because `zod/mini` also exports itself as `z`. The exporter never
 * reads `z.locales` (zod's English messages come from `zod/v4/locales/en.js`, which zod imports
 * directly), so that namespace is built empty: ~10 % less JavaScript to compile at every start
 * (docs/performance.md, "Start"). test/cli/start-modules.test.ts checks no locale but English is in
 * the bundle; the CLI's config errors (test/e2e) still come in zod's English.
 */
const noZodLocales = {
  name: 'no-zod-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: 'zod-locales', namespace: 'empty' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/** Older builds' chunks are kept for an hour (a CLI started before a rebuild may still import one). */
const KEEP_OLD_CHUNKS_MS = 60 * 60_000;

function pruneChunks(current) {
  const dir = join(DIST, 'chunks');
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (current.has(file)) continue;
    try {
      if (Date.now() - statSync(file).mtimeMs > KEEP_OLD_CHUNKS_MS) rmSync(file, { force: true });
    } catch {
      // another build pruned it
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const why = process.argv.includes('--if-stale') ? staleness() : '';
  // never a clean start: a CLI running from the previous build (a test, a scheduled run) may still
  // import its chunks; buildCli writes every file by rename and prunes chunks an hour old
  if (why !== undefined) {
    const ms = await buildCli();
    process.stderr.write(`built ${relative(process.cwd(), BUNDLE)} in ${ms} ms${why ? ` (${why})` : ''}\n`);
  }
}
