/**
 * Inside the core, imports run one way and never in a circle. The folders are layers: `run`
 * orchestrates a run and may use everything; `email` and `commit` are built on `export`, `api` and
 * `config`, which only import each other (the config names routes and formats; the client and the
 * writers read the config's types). A type that two layers share lives in the lower one. The files
 * at the top of the core (`manifest.ts`, `window.ts`, `limits.ts` …) are shared vocabulary and
 * entry points, not a layer: they are checked for cycles only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, ROOT, sourceFiles } from './source';

const CORE = join(ROOT, 'functions', 'core');

/** Higher imports lower or equal, never the other way. */
const LAYER: Readonly<Record<string, number>> = {
  run: 3,
  email: 2,
  commit: 2,
  export: 1,
  api: 1,
  config: 1,
};

type Graph = ReadonlyMap<string, readonly string[]>;

/** The core file a specifier names (relative or `#core/…`), or null for anything else. */
function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith('#core/')
    ? join(CORE, spec.slice('#core/'.length))
    : spec.startsWith('.')
      ? normalize(join(dirname(from), spec))
      : null;
  if (base === null) return null;
  const file = `${base}.ts`;
  return existsSync(file) ? file : null;
}

function coreGraph(): Graph {
  return new Map(
    sourceFiles(CORE).map((file) => [
      file,
      importsOf(readFileSync(file, 'utf8'))
        .map((spec) => resolve(file, spec))
        .filter((t): t is string => t !== null),
    ]),
  );
}

const folderOf = (file: string): string => {
  const parts = relative(CORE, file).split(sep);
  return parts.length > 1 ? (parts[0] as string) : '.';
};

/** Imports from a lower layer into a higher one, as `from -> to`. */
function upward(graph: Graph): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const a = LAYER[folderOf(from)];
    for (const to of targets) {
      const b = LAYER[folderOf(to)];
      if (a !== undefined && b !== undefined && b > a) {
        out.push(`${relative(CORE, from)} -> ${relative(CORE, to)}`);
      }
    }
  }
  return out;
}

/** The strongly connected components of more than one file (Tarjan): every import cycle. */
function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(relative(CORE, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the core flows one way', () => {
  it('finds an upward import and a cycle in a made-up graph', () => {
    const f = (p: string) => join(CORE, p);
    const graph: Graph = new Map([
      [f('export/a.ts'), [f('run/b.ts')]],
      [f('run/b.ts'), [f('export/a.ts')]],
      [f('email/c.ts'), [f('export/a.ts')]],
    ]);
    expect(upward(graph)).toEqual(['export/a.ts -> run/b.ts']);
    expect(cycles(graph)).toEqual([['export/a.ts', 'run/b.ts']]);
  });

  it('has every core folder in a layer', () => {
    const folders = new Set([...coreGraph().keys()].map(folderOf));
    folders.delete('.');
    expect([...folders].filter((f) => LAYER[f] === undefined)).toEqual([]);
  });

  it('has no import from a lower layer into a higher one, type-only imports included', () => {
    const graph = coreGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(upward(graph)).toEqual([]);
  });

  it('has no import cycle between core files', () => {
    expect(cycles(coreGraph())).toEqual([]);
  });
});
