/**
 * infra/ builds the stack from the config and deploys the handlers; it reads nothing else of the
 * functions tree. Allowed: the config schema and its helpers (`#core/config/*`), the one published
 * synth surface (`#core/synth`), the config file reader (`#adapters/config-file`) and the metric names
 * the API listed, kept beside it (`#adapters/known-metrics-file`), the error type the
 * app prints, and the metric names the dashboard shares with the handlers. Handler entry points are
 * referenced by path (bundled by esbuild), never imported.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './source';

const INFRA = join(ROOT, 'infra');

const ALLOWED = [
  /^#core\/config\//,
  /^#core\/synth$/,
  /^#core\/errors$/,
  /^#adapters\/config-file$/,
  /^#adapters\/known-metrics-file$/,
  /^#handlers\/metric-names$/,
];

const specifiers = (text: string): string[] =>
  [
    ...text.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1] ?? m[2] ?? '');

describe('infra reads only the published surface of the functions tree', () => {
  it('imports from functions/ only the config schema, #core/synth and the shared names', () => {
    const files = sourceFiles(INFRA);
    expect(files.length).toBeGreaterThan(5);
    const breaks = files.flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((s) => s.startsWith('#') || s.includes('functions/'))
        .filter((s) => !ALLOWED.some((a) => a.test(s)))
        .map((s) => `${relative(ROOT, file)} imports '${s}'`),
    );
    expect(breaks).toEqual([]);
  });
});
