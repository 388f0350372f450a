/**
 * The one place that decides which columns of a report the email shows (its top-N list or trend). The
 * export step may use it to keep only these columns in the rows it hands to the email, so the two never
 * disagree. Names are matched spelling-blind: config metrics use the API's names, columns may be
 * snake_case.
 */
import type { ReportConfig } from '../config/schema';
import { sameName } from './labels';
import { isList, isOverTime } from './shape';

/** Identifying columns shown per row: a name, then a category (platform, type). */
export const MAX_IDENTITY_COLUMNS = 2;
/** Metrics shown per row: topBy and the KPIs always, other metrics up to this many in all. */
export const MAX_METRIC_COLUMNS = 4;
const WINDOW = ['window_start', 'window_end'];

/** Lower ranks come first: human names, then categories, then dates, then ids. */
function identityRank(column: string): number {
  if (/name|title|caption/i.test(column)) return 0;
  if (/platform|type|channel/i.test(column)) return 1;
  if (/date/i.test(column)) return 2;
  if (/id$|ids$/i.test(column)) return 4;
  return 3;
}

/**
 * The columns the email shows for `report`, in display order, spelled as in `columns` (the report's
 * column names). Over-time: the bucket's start date and the charted metrics. Ranked: up to two
 * identifying columns (names first; ids only when there is no name), `topBy`, every KPI, then other
 * metrics while there is room. List routes: none (the email shows their count).
 */
export function emailColumns(
  report: Pick<ReportConfig, 'route' | 'metrics' | 'summary'>,
  columns: readonly string[],
): string[] {
  if (isList(report.route)) return [];
  const find = (name: string) => columns.find((c) => sameName(c, name));
  const metrics = (report.metrics ?? []).map(find).filter((c): c is string => c !== undefined);
  const isMetric = (c: string) => metrics.includes(c);
  const wanted = [report.summary.topBy, ...report.summary.kpis]
    .map((m) => (m === undefined ? undefined : find(m)))
    .filter((c): c is string => c !== undefined);
  const must = [...new Set(wanted)];
  if (isOverTime(report.route)) {
    const start = find('startDate');
    const charted = must.length > 0 ? must : metrics.slice(0, 1);
    return [...(start ? [start] : []), ...charted];
  }
  const identity = columns
    .filter((c) => !isMetric(c) && !WINDOW.some((w) => sameName(w, c)))
    .sort((a, b) => identityRank(a) - identityRank(b));
  const named = identity.filter((c) => identityRank(c) < 4);
  const shownIds = (named.length > 0 ? named : identity).slice(0, MAX_IDENTITY_COLUMNS);
  const room = Math.max(0, MAX_METRIC_COLUMNS - must.length);
  const extra = metrics.filter((m) => !must.includes(m)).slice(0, room);
  return [...shownIds, ...must, ...extra];
}
