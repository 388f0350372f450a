/** The source files of a folder and the modules each imports: what the architecture tests read. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/** Every `.ts` file below `dir`. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every module specifier a file imports or re-exports, statically or dynamically, type-only included. */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  const re =
    /(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) found.push(m[1] ?? m[2] ?? m[3] ?? '');
  return found;
}
