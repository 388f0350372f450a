/**
 * Words people use for column and metric names. A label is derived from the name, whichever spelling
 * it has (`paidImpressions`, `paid_impressions`, `paid-impressions` all give "Paid impressions"), and a
 * config's `labels:` override wins. Overrides are matched the same spelling-blind way, so a label written
 * for the API's name also applies to its snake_case column.
 */
import { own } from '../records';

/** Abbreviations spelled out, and acronyms kept in capitals. */
const WORDS: Readonly<Record<string, string>> = {
  avg: 'average',
  id: 'ID',
  ids: 'IDs',
  roi: 'ROI',
  ctr: 'CTR',
  cpm: 'CPM',
  cpc: 'CPC',
  url: 'URL',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  instagram: 'Instagram',
  facebook: 'Facebook',
};

/** `paidImpressions` / `paid_impressions` → `paid impressions` words, lower case. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

/** The spelling-blind key of a name: `paid_impressions` and `paidImpressions` are the same column. */
export const nameKey = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Whether two spellings name the same column (API name vs snake_case column name). */
export const sameName = (a: string, b: string): boolean => nameKey(a) === nameKey(b);

/** `paidImpressions` → "Paid impressions", `avgWatchTime` → "Average watch time", `roi` → "ROI". */
export function humanise(name: string): string {
  const out = words(name).map((w) => own(WORDS, w) ?? w);
  const first = out[0];
  if (first === undefined) return name;
  out[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return out.join(' ');
}

export type Labels = Readonly<Record<string, string>>;

/** A labeller for one report: overrides (report over global) by spelling-blind name, else derived. */
export function labeller(...overrides: readonly (Labels | undefined)[]): (name: string) => string {
  const map = new Map<string, string>();
  for (const labels of overrides) {
    for (const [name, label] of Object.entries(labels ?? {})) map.set(nameKey(name), label);
  }
  return (name) => map.get(nameKey(name)) ?? humanise(name);
}

/** Columns whose values are codes from a short list (platform, status, content type), shown as words. */
const CATEGORY = /platform|status|type|format|channel|state/i;
/** A code as the API sends it: lower case words joined by `_` or `-` (`instagram_reel`, `draft`). */
const CODE = /^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$/;

/**
 * Shows a value of a category column as a word (`facebook` → "Facebook", `tiktok` → "TikTok", `draft`
 * → "Draft", `instagram_reel` → "Instagram reel"); `labels:` entries keyed by the value win (`draft:
 * Not started`). Names and other text are left as they are.
 */
export function valueLabeller(
  ...overrides: readonly (Labels | undefined)[]
): (column: string, value: string) => string {
  const map = new Map<string, string>();
  for (const labels of overrides) {
    for (const [name, label] of Object.entries(labels ?? {})) map.set(nameKey(name), label);
  }
  return (column, value) => {
    if (!CATEGORY.test(column) || !CODE.test(value)) return value;
    return map.get(nameKey(value)) ?? humanise(value);
  };
}
