/**
 * What the CLI reads at start (docs/performance.md, "Start"): the bundle's entry loads commander and
 * the one command a command line names (functions/cli/main.ts); the AWS SDK, nodemailer and the
 * simulator are loaded on demand (functions/cli/on-demand.ts), so a `run` into a folder never parses
 * them. Read from the built bundle (Vitest's global setup rebuilds it when a source changed): the
 * files a module imports statically, followed from the entry, and the sources their maps name.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = resolve(ROOT, 'dist', 'cli.mjs');

function importsOf(file: string): { readonly static: string[]; readonly dynamic: string[] } {
  const text = readFileSync(file, 'utf8');
  const at = (m: RegExpMatchArray) => resolve(dirname(file), m[1] as string);
  return {
    static: [...text.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]*?from\s*)?"(\.[^"]+)"/g)].map(at),
    dynamic: [...text.matchAll(/import\("(\.[^"]+)"\)/g)].map(at),
  };
}

/** `files` and every file they import statically. */
function loadedFiles(...files: string[]): string[] {
  const seen = new Set<string>();
  const stack = [...files];
  for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...importsOf(file).static);
  }
  return [...seen];
}

/** The repository files and packages behind `files` and every file they import statically. */
function loadedAtStart(...files: string[]): string[] {
  const sources = loadedFiles(...files).flatMap((file) => {
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    return map.sources.map((s) => relative(ROOT, resolve(dirname(file), s)));
  });
  return [...new Set(sources.map((s) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s)?.[1] ?? s))].sort();
}

/** The chunk of a command, which the command table (in a chunk the entry loads) imports when needed. */
function commandChunk(name: string): string {
  const chunk = loadedFiles(ENTRY)
    .flatMap((f) => importsOf(f).dynamic)
    .find((f) => new RegExp(`/${name}-[A-Z0-9]+\\.mjs$`).test(f));
  if (chunk === undefined) throw new Error(`the CLI's bundle has no chunk of its own for \`${name}\``);
  return chunk;
}

describe('what the CLI loads at start', () => {
  it('the entry alone is commander and the command table: no command, no other package', () => {
    const loaded = loadedAtStart(ENTRY);
    expect(loaded).toContain('functions/cli/main.ts');
    expect(loaded.filter((s) => s.startsWith('functions/cli/commands/'))).toEqual([
      'functions/cli/commands/table.ts',
    ]);
    expect(loaded.filter((s) => !s.startsWith('functions/') && s !== 'package.json')).toEqual(['commander']);
  });

  it('`run` into a folder loads no AWS SDK, mail composer, simulator, Parquet reader or progress bars', () => {
    const loaded = loadedAtStart(ENTRY, commandChunk('run'));
    expect(loaded).toContain('functions/cli/commands/run.ts');
    // HTTP on node:http (#http's `cli` condition): the undici package is ~0.5 MB of JavaScript to
    // compile and evaluate before the first request
    expect(loaded).toContain('functions/adapters/http-node.ts');
    expect(loaded).not.toContain('undici');
    // the Parquet reader rewrites a part only when the model grew mid-run; the bars show on a terminal
    const onDemand = loaded.filter((s) =>
      /^(@aws-sdk\/|@smithy\/|nodemailer$|functions\/simulator\/|hyparquet$|cli-progress$)/.test(s),
    );
    expect(onDemand).toEqual([]);
  });

  it("`run` imports no `node:http` as an ES module: on Node 22 that loads Node's internal undici", () => {
    // building the import's namespace reads the module's `WebSocket`, `CloseEvent` and `MessageEvent`
    // getters (~19 ms); scripts/build-cli.mjs aliases node:http to a process.getBuiltinModule shim
    const files = loadedFiles(ENTRY, commandChunk('run'));
    const esImports = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:import|export)\s*[\w*{}\s,$]*?from\s*"(node:)?http"/g)].map(
        () => relative(ROOT, file),
      ),
    );
    expect(files.length).toBeGreaterThan(3);
    expect(esImports).toEqual([]);
  });

  it('`run` loads the YAML parser and the config schema only to parse a config the cache does not hold', () => {
    // functions/adapters/config-file.ts imports them when it parses (functions/adapters/config-cache.ts)
    const loaded = loadedAtStart(ENTRY, commandChunk('run'));
    expect(loaded).toContain('functions/adapters/config-cache.ts');
    const parsing = loaded.filter((s) =>
      /^(yaml$|functions\/core\/config\/(load|schema|schema-[a-z]+)\.ts$)/.test(s),
    );
    expect(parsing).toEqual([]);
  });

  it("zod's message locales other than English are not in the bundle (scripts/build-cli.mjs)", () => {
    const sources = loadedFiles(ENTRY, commandChunk('run'), commandChunk('validate')).flatMap(
      (file) => (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources,
    );
    const locales = sources.filter((s) => /zod\/v4\/locales\//.test(s)).map((s) => s.replace(/.*\//, ''));
    expect(locales).toEqual(['en.js']);
  });
});
