/**
 * "Did you mean" for metric names. The API document publishes no complete list of metric names, so a
 * name we do not know may still be valid: an unknown name is never an error. Only a name *close* to a
 * known one (a likely typo such as `coments`) gets a warning from `validate`.
 */

/** The metric names the API document itself lists (section "Metric names known in v2"). */
export const DOCUMENTED_METRICS: readonly string[] = [
  'likes',
  'comments',
  'shares',
  'clicks',
  'crosspostedViews',
  'crosspostedFacebookOnlyViews',
  'avgWatchTime',
  'videoViewTotalTime',
  'totalInteractions',
  'paidEngagements',
  'paidImpressions',
  'paidAdSpend',
];

/** A metric name in the config that is probably a typo of a known one. */
export interface MetricSuggestion {
  /** `schedules[0].reports[1].metrics[2]` */
  readonly path: string;
  readonly name: string;
  readonly suggestion: string;
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions), capped at `max + 1`. */
export function editDistance(a: string, b: string, max = 3): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (prev2[j - 2] ?? 0) + 1);
      }
      row.push(d);
    }
    prev2 = prev;
    prev = row;
  }
  return Math.min(prev[b.length] ?? max + 1, max + 1);
}

/** The known name `name` is most likely a typo of, or null when it is known or not close to any. */
export function closestMetric(name: string, known: ReadonlySet<string>): string | null {
  if (known.has(name)) return null;
  // one edit for short names, about one per five characters for longer ones
  const allowed = Math.max(1, Math.floor(name.length / 5));
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const d = candidate.toLowerCase() === name.toLowerCase() ? 0 : editDistance(name, candidate, allowed);
    if (d <= allowed && (best === null || d < best.distance)) best = { name: candidate, distance: d };
  }
  return best?.name ?? null;
}

/**
 * The part of a config the metric checks read: each report's route and metric names. A validated
 * `Config` is one; `metricListsOf` gets one out of a config that has errors, so `validate` can still
 * give its hints in the same pass.
 */
export interface MetricLists {
  readonly schedules: readonly {
    readonly reports: readonly { readonly route?: string; readonly metrics?: readonly string[] }[];
  }[];
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const field = (v: unknown, key: string): unknown =>
  typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;

/** The routes and metric names of parsed but unvalidated config data; anything malformed is skipped. */
export function metricListsOf(data: unknown): MetricLists {
  return {
    schedules: list(field(data, 'schedules')).map((schedule) => ({
      reports: list(field(schedule, 'reports')).map((report) => {
        const route = field(report, 'route');
        const metrics = list(field(report, 'metrics')).filter((m): m is string => typeof m === 'string');
        return { ...(typeof route === 'string' ? { route } : {}), metrics };
      }),
    })),
  };
}

/** Every metric name of the config (metrics, KPIs, topBy) that looks like a typo of a known name. */
export function metricSuggestions(config: MetricLists, known: Iterable<string>): MetricSuggestion[] {
  const names = new Set(known);
  const out: MetricSuggestion[] = [];
  config.schedules.forEach((schedule, s) => {
    schedule.reports.forEach((report, r) => {
      const at = `schedules[${s}].reports[${r}]`;
      (report.metrics ?? []).forEach((name, i) => {
        const suggestion = closestMetric(name, names);
        if (suggestion) out.push({ path: `${at}.metrics[${i}]`, name, suggestion });
      });
    });
  });
  return out;
}

/**
 * The warning line `validate` prints for a suggestion; `learnedOn` is the route whose 400 named the
 * suggested name, when only the API (not the document or the simulator) knows it.
 */
export function suggestionMessage(s: MetricSuggestion, learnedOn?: string): string {
  const source = learnedOn ? `, a name the API listed as valid on ${learnedOn} in an earlier 400` : '';
  return `${s.path}: metric "${s.name}" is not a name we know — did you mean "${s.suggestion}"${source}? (a warning only: the API may know names we do not; \`report-exporter check\` asks it)`;
}
