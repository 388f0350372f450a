/**
 * `schedules[0].reports[1].filters` from a config path. Its own module, free of the YAML parser and
 * the full zod schema, so the Lambda bundles (payload checks) can name config paths too.
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(config)' : out;
}
