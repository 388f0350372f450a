/**
 * `migrate-v1`: turns a v1 reporting request URL into the v2 report config that replaces it, with
 * what changed and what is dropped. Pure: the CLI command only prints the result.
 */

import { Document, visit } from 'yaml';
import { ExporterError } from '../errors';
import { own } from '../records';
import { formatIssues } from './load';
import { classifyParam, dropNote, FILTER_PARAMS, readQuery } from './migrate-params';
import { isLinkMetric, normaliseV1Path, ROUTE_SPECS, type Route, V1_PATHS } from './routes';
import { ConfigSchema } from './schema';

/** One report entry as it goes under a schedule's `reports:`. */
export interface MigratedReport {
  id: string;
  route: Route;
  metrics?: string[];
  filters?: {
    platform?: string;
    contentType?: string;
    dateBasis?: string;
    instanceIds?: string[];
    campaignIds?: string[];
    /** Kept only so that `validate` refuses the entry until the user scopes it with instanceIds. */
    reportingGroupIds?: string[];
  };
  params?: Record<string, string>;
}

export interface Migration {
  /** The v1 path the URL named, e.g. `/v1/reporting/campaign/performance`. */
  readonly v1Path: string;
  /** The v2 reports replacing it: one, or two for the dropped details routes. */
  readonly reports: readonly MigratedReport[];
  /** What changed between the v1 route and its v2 replacement (from the API document). */
  readonly changes: readonly string[];
  /** What the URL carried that v2 or the exporter does not take, each with the reason. */
  readonly dropped: readonly string[];
  /** Per report id: the problems `validate` reports for the entry as printed ([] = it validates). */
  readonly problems: Readonly<Record<string, readonly string[]>>;
  /** Paste-ready YAML: comments, then the list item(s) for `reports:`. */
  readonly yaml: string;
}

/** Why a v1 URL scoped by reporting groups yields an entry that does not validate yet. */
export const GROUPS_KEPT =
  'reportingGroupIds: removed in v2. Kept in filters so that validate refuses this entry until you replace them with the instanceIds of those groups: without instanceIds v2 exports every instance bound to the client';

/**
 * Migrates one v1 request URL (absolute, or a path with its query string).
 * Throws `USAGE` when the URL does not name a v1 reporting path that v2 knows.
 */
export function migrateV1Url(input: string): Migration {
  const url = parseUrl(input);
  const v1Path = url ? normaliseV1Path(url.pathname) : null;
  if (!url || v1Path === null) {
    throw new ExporterError(
      'USAGE',
      `"${input}" is not a v1 reporting URL (expected a path under /v1/reporting/)`,
    );
  }
  const mapping = V1_PATHS[v1Path];
  if (!mapping) {
    throw new ExporterError('USAGE', `"${v1Path}" is not a v1 reporting route that v2 replaces`);
  }
  const query = readQuery(url.searchParams);
  const dropped: string[] = [];
  const changes: string[] = [mapping.note];
  const routes: Route[] = mapping.route ? [mapping.route] : ['instances', 'instances/performance'];
  dropDates(query, dropped);
  const reports = routes.map((route) => toReport(route, query, dropped));
  if (reports.some((r) => r.filters?.reportingGroupIds)) changes.push(GROUPS_KEPT);
  const problems = Object.fromEntries(reports.map((r) => [r.id, problemsOf(r)]));
  return {
    v1Path,
    reports,
    changes,
    dropped: unique(dropped),
    problems,
    yaml: render(v1Path, reports, changes, dropped, problems),
  };
}

function toReport(route: Route, query: Map<string, string[]>, dropped: string[]): MigratedReport {
  const spec = ROUTE_SPECS[route];
  const report: MigratedReport = { id: route.replace(/\//g, '-'), route };
  const given = query.get('metrics') ?? [];
  const linkMetrics = spec.linkMetrics ? [] : given.filter(isLinkMetric);
  if (linkMetrics.length > 0) {
    dropped.push(
      `metrics ${linkMetrics.join(', ')}: route "${route}" never returns trackingLinks*/affiliateLinks* metrics`,
    );
  }
  const metrics = given.filter((m) => !linkMetrics.includes(m));
  if (spec.metrics === 'forbidden') {
    if (metrics.length > 0) dropped.push(`metrics: route "${route}" returns no metrics`);
  } else if (metrics.length > 0) {
    report.metrics = metrics;
  } else if (spec.metrics === 'required') {
    report.metrics = []; // left for the user to fill: rendered with a REQUIRED comment
  }
  const filters: NonNullable<MigratedReport['filters']> = {};
  const takes = spec.instanceIds ? 'only instanceIds of the filters' : 'no filters';
  for (const key of FILTER_PARAMS) {
    const value = query.get(key)?.[0];
    if (value === undefined) continue;
    if (spec.baseFilters) filters[key] = value;
    else dropped.push(`${key}: route "${route}" takes ${takes}`);
  }
  for (const key of ['instanceIds', 'campaignIds', 'reportingGroupIds'] as const) {
    const ids = query.get(key) ?? [];
    if (ids.length === 0) continue;
    const taken = key === 'campaignIds' ? spec.baseFilters : spec.instanceIds;
    if (!taken) {
      dropped.push(`${key}: route "${route}" takes ${takes}`);
    } else if (key === 'reportingGroupIds') {
      // never widen the scope silently: the entry fails validate, with the reason, until rescoped
      filters.reportingGroupIds = ids;
    } else {
      filters[key] = ids;
    }
  }
  if (Object.keys(filters).length > 0) report.filters = filters;
  const params: Record<string, string> = {};
  for (const [key, values] of query) {
    const kind = classifyParam(key);
    if (kind === 'sorting') params[key] = values.join(',');
    const note = dropNote(key, kind, route);
    if (note !== null) dropped.push(note);
  }
  // sorting is unchanged in v2 (its names are not documented): carried over, to be checked with `check`
  if (Object.keys(params).length > 0) report.params = params;
  return report;
}

/** What `validate` says of one migrated entry, as pasted under a schedule (paths relative to it). */
function problemsOf(report: MigratedReport): string[] {
  const probe = {
    api: { baseUrl: 'https://reporting.example.com', credentialsSecret: 'migrated' },
    schedules: [{ id: 'migrated', cron: '0 8 ? * MON *', window: 'yesterday', reports: [report] }],
  };
  const result = ConfigSchema.safeParse(probe);
  if (result.success) return [];
  return formatIssues(result.error.issues).map((p) => p.replace(/^schedules\[0\]\.reports\[0\]\./, ''));
}

function dropDates(query: Map<string, string[]>, dropped: string[]): void {
  const start = query.get('startDate')?.[0];
  const end = query.get('endDate')?.[0];
  if (start === undefined && end === undefined) return;
  const span = start && end ? ` (this URL asked for ${start} to ${end}${suggestWindow(start, end)})` : '';
  dropped.push(`startDate/endDate: the schedule's window sets the dates of each run${span}`);
}

/** A window that yields the same span, when the dates are a whole month or a plain day count. */
function suggestWindow(start: string, end: string): string {
  const a = Date.parse(`${start}T00:00:00Z`);
  const b = Date.parse(`${end}T00:00:00Z`);
  if (Number.isNaN(a) || Number.isNaN(b) || b < a) return '';
  const days = Math.round((b - a) / 86_400_000) + 1;
  const next = new Date(b + 86_400_000);
  if (start.endsWith('-01') && next.getUTCDate() === 1 && days <= 31) return '; window: previous-month';
  return days <= 366 ? `; window: last-${days}-days` : '';
}

function render(
  v1Path: string,
  reports: readonly MigratedReport[],
  changes: string[],
  dropped: string[],
  problems: Readonly<Record<string, readonly string[]>>,
): string {
  // Query text lands in comments: a line break there would break out of the comment.
  const comment = (text: string) => `# ${text.replace(/[\r\n\u2028\u2029]+/g, ' ')}`;
  const lines = [`# migrated from GET ${v1Path}`, ...changes.map((c) => comment(`changed: ${c}`))];
  lines.push(...unique(dropped).map((d) => comment(`dropped: ${d}`)));
  for (const r of reports) {
    const p = own(problems, r.id) ?? [];
    lines.push(
      p.length === 0
        ? `# ${r.id}: validates as printed`
        : comment(`${r.id}: does not validate yet — ${p.join('; ')}`),
    );
  }
  // Lists in flow style (`metrics: [likes, comments]`) as in the example config; no anchors/aliases.
  const doc = new Document(reports, { aliasDuplicateObjects: false });
  visit(doc, {
    Seq(key, node) {
      if (key !== null) node.flow = true;
    },
  });
  const body = doc
    .toString({ lineWidth: 0, flowCollectionPadding: false })
    .replace(
      /^(\s*)metrics: \[\]$/m,
      '$1metrics: [] # REQUIRED on this route: list the metrics to export (the API answers 400 with the valid set)',
    );
  return `${lines.join('\n')}\n${body}`;
}

function parseUrl(input: string): URL | null {
  try {
    return new URL(input.trim(), 'https://v1.invalid');
  } catch {
    return null;
  }
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}
