/**
 * Parsing and validating `reports.yaml`. The CLI and `cdk synth` read the file through
 * `functions/adapters/config-file.ts` and both come here, so they reject a bad config with the same,
 * path-named list of problems. (The Lambdas never parse YAML: `cdk synth` embeds the validated config.)
 */
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { ExporterError } from '../errors';
import { formatPath } from './path';
import { type Config, ConfigSchema } from './schema';
import { explainUnknownKey } from './unknown-keys';

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => `${formatPath([...issue.path, key])}: ${explainUnknownKey(issue.path, key)}`)
      : issue.code === 'invalid_type' && issue.message.endsWith('received undefined')
        ? [`${formatPath(issue.path)}: is required (${issue.expected})`]
        : [`${formatPath(issue.path)}: ${issue.message}`],
  );
}

/** Parses YAML text into a validated config. Throws CONFIG_INVALID listing every problem. */
export function parseConfig(text: string, source = 'reports.yaml'): Config {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const problems = doc.errors.map(
      (e) => `${source}: ${(e.message.split('\n')[0] ?? '').replace(/:$/, '')}`,
    );
    throw new ExporterError('CONFIG_INVALID', `${source} is not valid YAML:\n  ${problems.join('\n  ')}`, {
      details: { problems },
    });
  }
  return validateConfig(toPlain(doc, source), source);
}

/**
 * The YAML text as plain data, not validated, for hints about a config that has errors; undefined
 * when the text is not YAML at all.
 */
export function readConfigData(text: string): unknown {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return undefined;
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch {
    return undefined;
  }
}

/** Aliases may expand at most this many times over the document's size (a "billion laughs" bomb). */
const MAX_ALIAS_COUNT = 100;

function toPlain(doc: ReturnType<typeof parseDocument>, source: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err: unknown) {
    // the yaml library refuses alias expansion that would blow up (and reports aliases it cannot
    // resolve) with a bare ReferenceError; say which file and what to do
    const why = err instanceof Error ? err.message : String(err);
    throw new ExporterError(
      'CONFIG_INVALID',
      `${source} is not a usable config: its YAML aliases (*name) expand too much or cannot be resolved (${why}); write the values out or use fewer aliases`,
      { details: { problems: [`${source}: ${why}`] } },
    );
  }
}

/** Validates an already-parsed object. Throws CONFIG_INVALID listing every problem by path. */
export function validateConfig(value: unknown, source = 'reports.yaml'): Config {
  // jitless: zod otherwise compiles a fast path (`new Function`) for every object schema on its first
  // parse, which pays for itself only over many parses; a config is parsed once per process, and the
  // compiling was ~8–10 ms of every CLI start (docs/performance.md, "Start"). Same checks, same result.
  const result = ConfigSchema.safeParse(value ?? {}, { jitless: true });
  if (result.success) return result.data;
  const problems = formatIssues(result.error.issues);
  throw new ExporterError(
    'CONFIG_INVALID',
    `${source} has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n  ${problems.join('\n  ')}`,
    { details: { problems } },
  );
}
