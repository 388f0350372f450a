/**
 * Which columns the summary's top table shows, and each cell as it is shown — the ONE choice used
 * both by the export (which trims the top rows it passes on to these columns and lengths, so the
 * Step Functions payload stays small whatever the API sends) and by the email renderer (which
 * shows them). Applied to rows it already trimmed, the choice gives the same columns again.
 */
import { type Picture, ROUTE_SPECS, type Route } from '../config/routes';
import type { ReportConfig } from '../config/schema';
import type { SummaryRow } from '../export/top';
import { own } from '../records';
import { oneLine, readableList, truncate } from './format';
import { sameName } from './labels';

/** Longest cell text in the top table; names and captions can be paragraphs. */
export const MAX_CELL_CHARS = 40;
/** Most columns in the top table, so it still fits a phone screen (topBy and KPIs always get one). */
export const MAX_TOP_COLUMNS = 6;
/** An identifying column whose name is longer than this is never shown (nor carried). */
export const MAX_COLUMN_NAME_CHARS = 64;
/** Names and categories; ids are dropped first when a row has more identifying fields. */
const MAX_IDENTITY_COLUMNS = 2;
const WINDOW_COLUMNS = new Set(['window_start', 'window_end']);

/** What of a report's config the choice depends on (without a route: a ranked report). */
export type TopColumnsConfig = Pick<ReportConfig, 'metrics'> & {
  readonly route?: Route;
  readonly summary: Pick<ReportConfig['summary'], 'kpis' | 'topBy'>;
};

/**
 * The columns the email shows, given the column names the rows have (in first-seen order), spelled as
 * the rows spell them (config metrics use the API's names, columns may be snake_case). Ranked reports:
 * identifying columns first (names before ids, at most two), then `topBy` and every KPI, then the
 * report's other metrics while there is room. Over-time reports (a trend in date order): the bucket's
 * start date and the charted KPIs (else the first metric). List routes: none (the email shows a count).
 */
export function topColumns(present: Iterable<string>, config: TopColumnsConfig): string[] {
  const names = [...new Set(present)];
  const picture: Picture = config.route === undefined ? 'ranked' : ROUTE_SPECS[config.route].picture;
  if (picture === 'count') return [];
  const spelled = (name: string) => names.find((c) => sameName(c, name)) ?? name;
  const metrics = (config.metrics ?? []).map(spelled);
  const topBy = config.summary.topBy;
  const must = [...new Set([...(topBy === undefined ? [] : [topBy]), ...config.summary.kpis].map(spelled))];
  if (picture === 'trend') {
    const start = names.find((c) => sameName(c, 'startDate'));
    const charted = must.length > 0 ? must : metrics.slice(0, 1);
    return [...(start === undefined ? [] : [start]), ...charted];
  }
  const identity = names
    .filter((c) => !metrics.includes(c) && !WINDOW_COLUMNS.has(c) && c.length <= MAX_COLUMN_NAME_CHARS)
    .sort((a, b) => identityRank(a) - identityRank(b))
    .slice(0, MAX_IDENTITY_COLUMNS);
  const extra = metrics.filter((m) => !must.includes(m) && names.includes(m));
  const room = Math.max(0, MAX_TOP_COLUMNS - identity.length - must.length);
  return [...identity, ...must, ...extra.slice(0, room)];
}

/** Lower ranks come first: human names, then categories, then dates, then ids. */
function identityRank(column: string): number {
  if (/name|title|caption/i.test(column)) return 0;
  if (/platform|type|channel/i.test(column)) return 1;
  if (/date/i.test(column)) return 2;
  if (/ids?$/i.test(column)) return 4;
  return 3;
}

/**
 * A cell as the email shows it: strings on one line (a JSON array as a readable list) and cut to
 * `MAX_CELL_CHARS`; others unchanged.
 */
export function displayCell(value: SummaryRow[string] | undefined): SummaryRow[string] {
  if (value === undefined) return null;
  return typeof value === 'string' ? truncate(oneLine(readableList(value)), MAX_CELL_CHARS) : value;
}

/** Rows cut to the table's columns (every row has each, null where it had none) and cell lengths. */
export function trimTopRows(rows: readonly SummaryRow[], config: TopColumnsConfig): SummaryRow[] {
  const columns = topColumns(
    rows.flatMap((r) => Object.keys(r)),
    config,
  );
  // fromEntries defines own keys, so a column named "__proto__" stays a column
  return rows.map((row) => Object.fromEntries(columns.map((c) => [c, displayCell(own(row, c))])));
}
