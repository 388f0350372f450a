/**
 * Lambda bundle figures: each handler in functions/handlers/*.ts bundled with esbuild (ESM, Node 22,
 * minified, the createRequire banner the CDK app uses), once with `@aws-sdk/*` external (the Node 22
 * Lambda runtime ships the SDK v3) and once with it bundled. For each bundle: its size and the
 * cold module-init time — a fresh `node` process timing `await import(bundle)` — median of `runs`,
 * taken round by round across all bundles.
 * While no handler exists yet, bench/lambda-standin.ts (the modules an export handler needs) is
 * bundled in its place and the table says so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const BANNER =
  "import{createRequire as __cr}from'node:module';import{fileURLToPath as __fu}from'node:url';import{dirname as __dn}from'node:path';const require=__cr(import.meta.url);const __filename=__fu(import.meta.url);const __dirname=__dn(__filename);";

/**
 * Variants that are infra's bundle with one of its choices undone: measured for comparison only
 * (what the choice saves), never deployed.
 */
const COMPARISONS = new Set(['infra-es-http', 'infra-eager']);

const HANDLER_EXPORT = /export\s+(const|let|async\s+function|function)\s+handler\b/;

/**
 * The handler entry points: functions/handlers/*.ts files that export `handler` (shared modules such
 * as wiring.ts are not entries). While there is no export handler yet, the stand-in takes its place.
 */
export function handlerEntries(root) {
  const dir = join(root, 'functions', 'handlers');
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.endsWith('.test.ts'))
        .filter((f) => HANDLER_EXPORT.test(readFileSync(join(dir, f), 'utf8')))
        .sort()
        .map((f) => ({ name: basename(f, '.ts'), file: join(dir, f), standIn: false }))
    : [];
  if (!files.some((f) => f.name === 'export'))
    files.push({ name: 'export (stand-in)', file: join(root, 'bench', 'lambda-standin.ts'), standIn: true });
  return files;
}

/**
 * The SSM parameters the example config's recipient lists name, found as the CDK app finds them
 * (`recipientParameters` of the validated config, infra/stacks/exporter-stack.ts): the app's own
 * functions, bundled into `outDir` and imported.
 */
async function recipientParameters(root, outDir, text) {
  const file = join(outDir, 'recipient-parameters.mjs');
  await build({
    stdin: {
      contents: `export { parseConfig } from './functions/core/config/load.ts';
export { recipientParameters } from './functions/core/email/recipients.ts';`,
      resolveDir: root,
      loader: 'ts',
    },
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    banner: { js: BANNER },
    logLevel: 'error',
  });
  const app = await import(pathToFileURL(file).href);
  return app.recipientParameters(app.parseConfig(text));
}

/**
 * The `define`s the CDK app gives each handler's bundle for the example config, read once per run:
 * Finalize's `SSM_RECIPIENTS_DEFINE` (infra/constructs/functions.ts) when the config names no `ssm:`
 * recipient list. (The config itself is a file beside each deployed bundle, read at the first
 * invocation, not at module load: nothing here.)
 */
async function exampleDefines(root, outDir) {
  const text = readFileSync(join(root, 'reports.yaml'), 'utf8');
  const file = join(root, 'infra', 'constructs', 'functions.ts');
  const m = (existsSync(file) ? readFileSync(file, 'utf8') : '').match(
    /SSM_RECIPIENTS_DEFINE\s*=\s*\{\s*'([^']+)':\s*'([^']+)'\s*\}/,
  );
  const noSsm = m !== null && (await recipientParameters(root, outDir, text)).length === 0;
  return { finalize: noSsm ? { [m[1]]: m[2] } : {} };
}

/** The `'name=path'` aliases of a list constant in infra/constructs/exporter-function.ts. */
function aliasList(text, name, root) {
  const list = text.match(new RegExp(`${name}(?::[^=]*)?\\s*=\\s*\\[([^\\]]*)\\]`))?.[1] ?? '';
  return Object.fromEntries([...list.matchAll(/'([^'=]+)=([^']+)'/g)].map((m) => [m[1], join(root, m[2])]));
}

/**
 * The ways of bundling measured: as the CDK app does (infra/constructs/exporter-function.ts: only the
 * SDK clients the runtime ships are external, the built-in and package shims, a source map read at the
 * first stack trace rather than through --enable-source-maps), the same with the built-in shims undone
 * and with the package shims and eager source maps undone (comparisons), every `@aws-sdk/*` and
 * `@smithy/*` left to the runtime, and everything bundled.
 */
function variants(root) {
  const infraFile = join(root, 'infra', 'constructs', 'exporter-function.ts');
  const text = existsSync(infraFile) ? readFileSync(infraFile, 'utf8') : '';
  const list = text.match(/RUNTIME_PROVIDED(?::[^=]*)?\s*=\s*\[([^\]]*)\]/)?.[1];
  const infraExternal = list !== undefined ? [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]) : null;
  const sourceMaps = /sourceMap:\s*true/.test(text);
  // the map read as each module loads (NODE_OPTIONS) rather than at the first stack trace
  const eagerMaps = sourceMaps && /NODE_OPTIONS:\s*'[^']*--enable-source-maps/.test(text);
  const conditions = text.match(/BUNDLE_CONDITIONS\s*=\s*'([^']*)'/)?.[1]?.split(',') ?? [];
  // BUILTIN_SHIMS (infra/constructs/exporter-function.ts) is built from this list
  const builtinShims = Object.fromEntries(
    Object.entries(
      JSON.parse(readFileSync(join(root, 'infra', 'constructs', 'builtin-shims.json'), 'utf8')),
    ).map(([name, path]) => [name, join(root, path)]),
  );
  const packageShims = aliasList(text, 'PACKAGE_SHIMS', root);
  const alias = { ...builtinShims, ...packageShims };
  const names = (o) => Object.keys(o).join(', ');
  return [
    ...(infraExternal
      ? [
          {
            id: 'infra',
            label: `as infra (external: ${infraExternal.join(', ') || 'none'}; conditions: ${conditions.join(',') || 'default'}${Object.keys(builtinShims).length > 0 ? `; CommonJS shims: ${names(builtinShims)}` : ''}${Object.keys(packageShims).length > 0 ? `; package shims: ${names(packageShims)}` : ''}; the CDK app's defines for the example config${sourceMaps ? (eagerMaps ? '; source maps on (--enable-source-maps)' : '; source map read at the first stack trace') : ''})`,
            external: infraExternal,
            conditions,
            alias,
            sourceMaps,
            eagerMaps,
            handlerDefines: true,
          },
          ...(Object.keys(builtinShims).length > 0
            ? [
                {
                  id: 'infra-es-http',
                  label: 'as infra, but node:http and node:https imported as ES modules (no built-in shims)',
                  external: infraExternal,
                  conditions,
                  alias: packageShims,
                  sourceMaps,
                  eagerMaps,
                  handlerDefines: true,
                },
              ]
            : []),
          ...(Object.keys(packageShims).length > 0 || (sourceMaps && !eagerMaps)
            ? [
                {
                  id: 'infra-eager',
                  label:
                    'as infra, but every package bundled whole (no package shims, no SSM client left out for a config without ssm: recipients) and the source map read at load (--enable-source-maps)',
                  external: infraExternal,
                  conditions,
                  alias: builtinShims,
                  sourceMaps,
                  eagerMaps: sourceMaps,
                },
              ]
            : []),
        ]
      : []),
    {
      id: 'sdk-external',
      label: 'external (runtime SDK: @aws-sdk/*, @smithy/*)',
      external: ['@aws-sdk/*', '@smithy/*'],
      conditions,
      sourceMaps: false,
      eagerMaps: false,
    },
    {
      id: 'sdk-bundled',
      label: 'bundled (nothing external)',
      external: [],
      conditions,
      sourceMaps: false,
      eagerMaps: false,
    },
  ];
}

async function bundle(entry, outfile, variant, defines) {
  await build({
    define: variant.handlerDefines ? (defines[basename(entry, '.ts')] ?? {}) : {},
    sourcemap: variant.sourceMaps,
    sourcesContent: false,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    mainFields: ['module', 'main'],
    external: variant.external,
    ...(variant.alias ? { alias: variant.alias } : {}),
    ...(variant.conditions.length > 0 ? { conditions: variant.conditions } : {}),
    banner: { js: BANNER },
    logLevel: 'error',
  });
  return statSync(outfile).size;
}

/**
 * The Node that measures cold init: the Lambda runtime's major (22) from test/node22 when installed
 * (`npm ci --prefix test/node22`), otherwise this process's Node.
 */
export function lambdaNode(root) {
  const node22 = join(
    root,
    'test',
    'node22',
    'node_modules',
    `node-${process.platform}-${process.arch}`,
    'bin',
    'node',
  );
  if (!existsSync(node22)) return { path: process.execPath, version: process.version };
  const v = spawnSync(node22, ['--version'], { encoding: 'utf8' });
  return v.status === 0
    ? { path: node22, version: v.stdout.trim() }
    : { path: process.execPath, version: process.version };
}

/** Cold init: a fresh node process that only imports the bundle (env as on Lambda, no network). */
function initMs(file, root, eagerMaps) {
  const code = `const t=performance.now();await import(${JSON.stringify(pathToFileURL(file).href)});process.stdout.write(String(performance.now()-t));`;
  const flags = eagerMaps ? ['--enable-source-maps'] : [];
  const r = spawnSync(lambdaNode(root).path, [...flags, '--input-type=module', '-e', code], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      AWS_REGION: 'eu-west-1',
      AWS_LAMBDA_FUNCTION_NAME: 'bench',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
      AWS_ACCESS_KEY_ID: 'bench',
      AWS_SECRET_ACCESS_KEY: 'bench',
    },
  });
  if (r.status !== 0) throw new Error(`import ${file} failed: ${r.stderr.slice(-1500)}`);
  return Number(r.stdout);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export async function lambdaFigures({ root, outDir, runs }) {
  mkdirSync(outDir, { recursive: true });
  const rows = [];
  const ways = variants(root);
  const defines = await exampleDefines(root, outDir);
  for (const e of handlerEntries(root)) {
    const slug = e.name.replace(/[^a-z0-9]+/gi, '-');
    for (const v of ways) {
      const file = join(outDir, `${slug}.${v.id}.mjs`);
      const bytes = await bundle(e.file, file, v, defines);
      rows.push({ ...e, variant: v, bytes, file, times: [] });
    }
  }
  // interleaved, one run of every bundle per round: a slow spell of the machine falls on all of them
  for (let i = 0; i < runs; i++)
    for (const r of rows) r.times.push(initMs(r.file, root, r.variant.eagerMaps));
  for (const r of rows) r.initMs = median(r.times);
  const kb = (b) => `${(b / 1024).toFixed(0)} KiB`;
  const table = [
    '| handler | bundling | minified size | cold module-init ms (median) | runs ms |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.variant.label} | ${kb(r.bytes)} | ${r.initMs.toFixed(0)} | ${r.times.map((t) => t.toFixed(0)).join(', ')} |`,
    ),
    '',
    `Entries: ${[...new Set(rows.map((r) => r.name))].join(', ')} (functions/handlers/*.ts files that export \`handler\`).`,
    ...(rows.some((r) => r.standIn)
      ? [
          'No functions/handlers/export.ts existed when this ran: "export (stand-in)" is bench/lambda-standin.ts, which imports what an export handler needs (config, API client, credentials, S3 sink, export step, Powertools logger).',
        ]
      : []),
    `Bundled with esbuild: ESM, target node22, minified, createRequire banner, the defines the CDK app gives them for the example config (the config itself is a file beside each deployed bundle, read at the first invocation: not part of module evaluation). Size = the .mjs alone (no source map). Cold init = \`await import(bundle)\` in a fresh \`node\` process of ${lambdaNode(root).version} (the Lambdas run Node 22: test/node22's when installed) (module evaluation only, no handler call; with --enable-source-maps where the variant says so); on Lambda add the runtime's own start. External modules are loaded from node_modules here, as the runtime loads its SDK.`,
  ];
  const summary = [];
  // comparisons (what a choice of infra's saves) are not ways anything is deployed
  const measured = rows.filter((r) => !COMPARISONS.has(r.variant.id));
  // the goals are the deployed bundles' (infra); the other ways of bundling are there for reference
  const reference = (id) => measured.some((r) => r.variant.id === 'infra') && id !== 'infra';
  for (const r of measured.filter((x) => x.name.startsWith('export'))) {
    summary.push({
      label: `Lambda: ${r.name} bundle size, ${r.variant.id}`,
      value: kb(r.bytes),
      goal: '≤ 1 MiB',
      met: r.bytes <= 1024 * 1024,
      reference: reference(r.variant.id),
    });
  }
  for (const v of [...new Set(measured.map((r) => r.variant.id))]) {
    const w = measured.filter((r) => r.variant.id === v).reduce((a, r) => (r.initMs > a.initMs ? r : a));
    summary.push({
      label: `Lambda: slowest cold init, ${v} (${w.name})`,
      value: `${w.initMs.toFixed(0)} ms`,
      goal: '≤ 150 ms',
      met: w.initMs <= 150,
      reference: reference(v),
    });
  }
  return { rows, table, summary };
}
