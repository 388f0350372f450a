/**
 * Turns zod's "Unrecognized key" issues into one line per key, at the key's own path, with the
 * nearest known key at that place as a suggestion — typos are the commonest config mistake.
 */
import { configJsonSchema } from './json-schema';
import { REPORTING_GROUPS_REMOVED } from './schema-report';

interface JsonNode {
  properties?: Record<string, JsonNode>;
  items?: JsonNode;
}

/** Known keys at a config path (`['schedules', 0, 'reports', 0]`), from the generated JSON Schema. */
export function knownKeysAt(path: readonly PropertyKey[]): string[] {
  let node: JsonNode | undefined = configJsonSchema() as JsonNode;
  for (const key of path) {
    node = typeof key === 'number' ? node?.items : node?.properties?.[String(key)];
  }
  return Object.keys(node?.properties ?? {});
}

/** The message for one unknown key, e.g. `unknown key "basUrl"; did you mean "baseUrl"?`. */
export function explainUnknownKey(path: readonly PropertyKey[], key: string): string {
  if (key.replace(/\[\]$/, '') === 'reportingGroupIds') return REPORTING_GROUPS_REMOVED;
  const known = knownKeysAt(path);
  const best = known
    .map((k) => ({ k, d: distance(k.toLowerCase(), key.toLowerCase()) }))
    .sort((a, b) => a.d - b.d)[0];
  if (best && best.d <= Math.max(2, Math.floor(key.length / 4))) {
    return `unknown key "${key}"; did you mean "${best.k}"?`;
  }
  return known.length > 0
    ? `unknown key "${key}"; known keys here: ${known.join(', ')}`
    : `unknown key "${key}"`;
}

/** Levenshtein distance; the strings are config key names, so the quadratic table is tiny. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}
