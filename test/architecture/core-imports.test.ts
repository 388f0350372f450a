/**
 * The core is pure logic: it takes HTTP, sinks, the mailer and the clock as arguments, so it imports
 * nothing that reaches the outside world. This test reads every import of `functions/core/**` and fails
 * on an adapter, a handler, the CLI, the simulator, an AWS SDK package, undici, or a Node module that
 * does I/O.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, ROOT, sourceFiles } from './source';

const CORE = join(ROOT, 'functions', 'core');

const FORBIDDEN: readonly { readonly pattern: RegExp; readonly why: string }[] = [
  { pattern: /^#(adapters|handlers|cli|simulator)\//, why: 'an outer layer' },
  { pattern: /^#http$/, why: 'an HTTP adapter (pass an HttpFactory in)' },
  { pattern: /^@aws-sdk\//, why: 'an AWS SDK package (belongs in functions/adapters)' },
  { pattern: /^undici$/, why: 'undici (belongs in functions/adapters)' },
  { pattern: /^(node:)?(fs|fs\/promises|net|child_process|dgram|tls)$/, why: 'Node I/O' },
  { pattern: /(^|\/)\.\.\/\.\.\/(adapters|handlers|cli|simulator)\//, why: 'an outer layer by path' },
];

describe('functions/core depends on nothing outside it', () => {
  it('finds the imports of a file, static, type-only, re-exported and dynamic', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from '#adapters/b';",
      "export { c } from 'undici';",
      "const d = await import('node:fs');",
      "import 'side-effect';",
    ].join('\n');
    expect(importsOf(text)).toEqual(['./a', '#adapters/b', 'undici', 'node:fs', 'side-effect']);
  });

  it('has no import of an adapter, the AWS SDK, undici or Node I/O', () => {
    const files = sourceFiles(CORE);
    expect(files.length).toBeGreaterThan(20);
    const breaks = files.flatMap((file) =>
      importsOf(readFileSync(file, 'utf8')).flatMap((spec) => {
        const rule = FORBIDDEN.find((r) => r.pattern.test(spec));
        return rule ? [`${relative(ROOT, file)} imports '${spec}': ${rule.why}`] : [];
      }),
    );
    expect(breaks).toEqual([]);
  });
});
