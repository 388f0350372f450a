/** The whole words of a camelCase / snake_case / kebab-case name, lower case: `avgWatchTime` → avg, watch, time. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-.]+|(?<=\D)(?=\d)/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/**
 * Words that make a metric a ratio of other quantities (an average, a rate, a share, a cost per …):
 * such a metric is fractional (the type rule) and never summed (the totals rule). One list, so the two
 * rules cannot drift apart.
 */
export const RATIO_WORDS: readonly string[] = [
  'avg',
  'average',
  'mean',
  'median',
  'rate',
  'ratio',
  'percent',
  'percentage',
  'pct',
  'share',
  'frequency',
  'score',
  'index',
  'per',
  'roi',
  'roas',
  'return',
  'ctr',
  'cpc',
  'cpm',
  'cpv',
  'cpe',
  'cpa',
];
