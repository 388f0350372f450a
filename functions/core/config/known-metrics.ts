/**
 * Metric names learned from the API itself: the valid set a 400 named (docs/config.md, "Did you
 * mean"). A run or `check` that gets such a 400 records the set — on the failed report's manifest
 * entry (`validMetrics`) and, from the CLI, in a small file beside the config — and `validate` adds
 * those names to the ones it compares against for "did you mean". Pure: reading and writing the
 * file is the adapter's (`#adapters/known-metrics-file`).
 */
import * as z from 'zod/mini';
import { ExporterError, isExporterError } from '../errors';
import type { Manifest } from '../manifest';
import type { MetricLists } from './metric-names';

/**
 * A set from server text is bounded: names of at most 100 characters, and at most 4,000 characters
 * in all on a manifest entry (it travels in the workflow's payload), 20,000 per route in the file.
 */
const MAX_NAME_CHARS = 100;
const MAX_ENTRY_CHARS = 4_000;
const MAX_FILE_ROUTE_CHARS = 20_000;

/** A route and the metric names a 400 on it listed as valid. */
export interface ValidSet {
  readonly route: string;
  readonly names: readonly string[];
}

/** What the CLI keeps between runs: per route, every name a 400 listed, and when last seen. */
export const KnownMetricsFileSchema = z.object({
  version: z.literal(1),
  routes: z.record(z.string(), z.object({ seenAt: z.string(), names: z.array(z.string()) })),
});
export type KnownMetricsFile = z.infer<typeof KnownMetricsFileSchema>;

/** Names that can stand for a metric (non-empty, short, no control characters), deduplicated, in order, until `maxChars`. */
export function boundedNames(names: readonly unknown[], maxChars = MAX_ENTRY_CHARS): string[] {
  const kept = new Set<string>();
  let chars = 0;
  for (const n of names) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a name with control characters is no metric name
    if (typeof n !== 'string' || n === '' || n.length > MAX_NAME_CHARS || /[\u0000-\u001f\u007f]/.test(n))
      continue;
    if (kept.has(n)) continue;
    if (chars + n.length > maxChars) break;
    kept.add(n);
    chars += n.length;
  }
  return [...kept];
}

/** The valid set an API error carries (`details.validMetrics` of a 400), bounded; undefined if none. */
export function validMetricsOf(err: unknown): string[] | undefined {
  if (!isExporterError(err)) return undefined;
  const valid = err.details.validMetrics;
  if (!Array.isArray(valid)) return undefined;
  const names = boundedNames(valid);
  return names.length > 0 ? names : undefined;
}

/** The valid sets the failed reports of these manifests carry. */
export function validSetsOf(manifests: readonly Pick<Manifest, 'reports'>[]): ValidSet[] {
  return manifests.flatMap((m) =>
    m.reports.flatMap((r) => (r.validMetrics?.length ? [{ route: r.route, names: r.validMetrics }] : [])),
  );
}

/**
 * `previous` with `sets` added: per route the union of every name seen (a set depends on the
 * filters sent, and a name only ever feeds a warning, so none is dropped), with the time last seen.
 */
export function withValidSets(
  previous: KnownMetricsFile | null,
  sets: readonly ValidSet[],
  now: Date,
): KnownMetricsFile {
  const routes: KnownMetricsFile['routes'] = { ...(previous?.routes ?? {}) };
  for (const set of sets) {
    const names = boundedNames([...(routes[set.route]?.names ?? []), ...set.names], MAX_FILE_ROUTE_CHARS);
    routes[set.route] = { seenAt: now.toISOString(), names };
  }
  return { version: 1, routes };
}

/** Every name a file (or manifests) recorded, for `validate`: each with a route a 400 named it on. */
export function learnedNames(
  file: KnownMetricsFile | null,
  sets: readonly ValidSet[] = [],
): Map<string, string> {
  const out = new Map<string, string>();
  const add = (route: string, names: readonly string[]) => {
    for (const n of names) if (!out.has(n)) out.set(n, route);
  };
  for (const set of sets) add(set.route, set.names);
  for (const [route, entry] of Object.entries(file?.routes ?? {})) add(route, entry.names);
  return out;
}

/** A metric of the config that the API itself left out of the valid set it listed for the route. */
export interface UnlistedMetric {
  /** `schedules[0].reports[1].metrics[2]` */
  readonly path: string;
  readonly name: string;
  readonly route: string;
  /** When a 400 on the route last listed its valid set. */
  readonly seenAt: string;
}

/**
 * Every metric name that is not in the valid set the API listed for its report's route (kept by
 * `run`/`check` in the known-metrics file). Routes the API never listed a set for are not judged.
 */
export function unlistedMetrics(config: MetricLists, known: KnownMetricsFile | null): UnlistedMetric[] {
  if (!known) return [];
  const out: UnlistedMetric[] = [];
  config.schedules.forEach((schedule, s) => {
    schedule.reports.forEach((report, r) => {
      const listed = report.route === undefined ? undefined : known.routes[report.route];
      if (!listed || report.route === undefined) return;
      const valid = new Set(listed.names);
      (report.metrics ?? []).forEach((name, i) => {
        if (!valid.has(name)) {
          out.push({
            path: `schedules[${s}].reports[${r}].metrics[${i}]`,
            name,
            route: report.route ?? '',
            seenAt: listed.seenAt,
          });
        }
      });
    });
  });
  return out;
}

/** The line naming an unlisted metric and where the list came from. */
export function unlistedMessage(u: UnlistedMetric): string {
  return `${u.path}: metric "${u.name}" is not among the valid metrics the API listed for ${u.route} (in a 400 seen ${u.seenAt.slice(0, 10)}); a run would fail this report`;
}

/**
 * What `cdk synth` does with unlisted metrics: refuses them (CONFIG_INVALID, each by path), since
 * every scheduled run would fail those reports; `-c allowUnlistedMetrics=true` skips this check.
 */
export function assertNoUnlistedMetrics(
  config: MetricLists,
  known: KnownMetricsFile | null,
  source = 'reports.yaml',
): void {
  const unlisted = unlistedMetrics(config, known);
  if (unlisted.length === 0) return;
  const problems = unlisted.map(unlistedMessage);
  throw new ExporterError(
    'CONFIG_INVALID',
    `${source} names ${problems.length} metric(s) the API listed as not valid:\n  ${problems.join('\n  ')}\n` +
      'fix the names (report-exporter validate --strict checks them), or deploy anyway with -c allowUnlistedMetrics=true',
    { details: { problems } },
  );
}
