/**
 * Column names (docs/export.md "Names"). By default snake_case (`paidImpressions` → `paid_impressions`,
 * `creator.name` → `creator_name`): lower-case letters, digits and `_`, which every warehouse takes
 * as is. With `output.columnNames: api` a column keeps the API's name (nested keys joined by `_`),
 * but for control characters, which become `_` (`CONTROL`).
 *
 * Names never collide: a name is taken once per report, compared case-insensitively (Glue and Athena
 * fold case). Window columns take theirs first, then the requested metrics, then fields and later
 * columns in the order they enter the model; a column whose name is already taken gets `__2`, `__3`,
 * … (the first free one). The model stores each column's name with its source, so a name, once
 * given, is the same in every later run.
 */
import { validText } from '../unicode';

export type Naming = 'snake_case' | 'api';

/** `paidImpressions` → `paid_impressions`; `CTR` → `ctr`; `=HYPERLINK(x)` → `_hyperlink_x_`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_');
}

/**
 * Control characters (U+0000–U+001F, U+007F–U+009F: line breaks, tabs, NUL …). In a name they become
 * `_`: a CSV header with a quoted line break is valid RFC 4180, but DuckDB's CSV sniffer refuses any
 * file whose first line has one, and no warehouse takes such a column name.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** The wanted name of a column from its API path (one key, or the keys of a nested field). */
export function baseName(path: readonly string[], naming: Naming): string {
  // a lone surrogate in a key would make the name invalid UTF-8 in a Parquet schema: U+FFFD instead
  const joined = validText(path.map((k) => (naming === 'snake_case' ? snakeCase(k) : k)).join('_')).replace(
    CONTROL,
    '_',
  );
  return joined === '' ? 'unnamed' : joined;
}

/** Hands out names, never the same one twice (case-insensitively). */
export class NameAllocator {
  private readonly taken = new Set<string>();

  constructor(existing: Iterable<string> = []) {
    for (const n of existing) this.taken.add(n.toLowerCase());
  }

  /** `wanted` when free, else `wanted__2`, `wanted__3`, … */
  take(wanted: string): string {
    let name = wanted;
    for (let i = 2; this.taken.has(name.toLowerCase()); i += 1) name = `${wanted}__${i}`;
    this.taken.add(name.toLowerCase());
    return name;
  }
}
