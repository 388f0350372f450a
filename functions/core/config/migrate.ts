/**
 * `migrate-v1`: turns a v1 reporting request URL into the v2 report config that replaces it, with
 * what changed and what is dropped. Pure: the CLI command only prints the result.
 */
import { Document, visit } from 'yaml';
import { ExporterError } from '../errors';
import { isLinkMetric, normaliseV1Path, ROUTE_SPECS, type Route, V1_PATHS } from './routes';

/** One report entry as it goes under a schedule's `reports:`. */
export interface MigratedReport {
  id: string;
  route: Route;
  metrics?: string[];
  filters?: { instanceIds?: string[]; campaignIds?: string[] };
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
  /** Paste-ready YAML: comments, then the list item(s) for `reports:`. */
  readonly yaml: string;
}

const ARRAY_PARAMS = new Set(['instanceIds', 'campaignIds', 'metrics', 'reportingGroupIds']);
const PAGING = new Set(['page', 'pageSize', 'perPage', 'per_page', 'limit', 'offset', 'nextCursor']);

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
  const changes = [mapping.note];
  const routes: Route[] = mapping.route ? [mapping.route] : ['instances', 'instances/performance'];
  const reports = routes.map((route) => toReport(route, query, dropped));
  dropDates(query, dropped);
  for (const key of query.keys()) {
    if (key === 'reportingGroupIds') {
      dropped.push(
        'reportingGroupIds: removed in v2 and not accepted; scope the report with instanceIds (and campaignIds)',
      );
    } else if (PAGING.has(key)) {
      dropped.push(
        `${key}: v2 pages with a cursor (limit + nextCursor), which the exporter follows; page size is api.pageSize`,
      );
    }
  }
  return {
    v1Path,
    reports,
    changes,
    dropped: unique(dropped),
    yaml: render(v1Path, reports, changes, dropped),
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
  const instanceIds = query.get('instanceIds') ?? [];
  const campaignIds = query.get('campaignIds') ?? [];
  if (!spec.baseFilters && campaignIds.length > 0) {
    dropped.push(`campaignIds: route "${route}" takes only instanceIds of the filters`);
  }
  const filters = {
    ...(instanceIds.length > 0 ? { instanceIds } : {}),
    ...(spec.baseFilters && campaignIds.length > 0 ? { campaignIds } : {}),
  };
  if (Object.keys(filters).length > 0) report.filters = filters;
  const params = Object.fromEntries(
    [...query.entries()]
      .filter(
        ([key]) => !ARRAY_PARAMS.has(key) && !PAGING.has(key) && key !== 'startDate' && key !== 'endDate',
      )
      .map(([key, values]) => [key, values.join(',')]),
  );
  // Sorting is unchanged in v2 (the API document's versioning notes; docs/api-assumptions.md), so sort parameters and anything else unknown
  // are carried over verbatim; the server rejects what it does not know.
  if (Object.keys(params).length > 0) report.params = params;
  return report;
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

/** Query keys normalised across array styles: `x=a&x=b`, `x[]=a`, `x[0]=a`, `x=a,b`. */
function readQuery(params: URLSearchParams): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [rawKey, value] of params) {
    const key = rawKey.replace(/\[\d*\]$/, '');
    const values = ARRAY_PARAMS.has(key) ? value.split(',').map((v) => v.trim()) : [value];
    out.set(key, [...(out.get(key) ?? []), ...values.filter((v) => v !== '')]);
  }
  return out;
}

function render(
  v1Path: string,
  reports: readonly MigratedReport[],
  changes: string[],
  dropped: string[],
): string {
  // Query text lands in comments: a line break there would break out of the comment.
  const comment = (text: string) => `# ${text.replace(/[\r\n\u2028\u2029]+/g, ' ')}`;
  const lines = [`# migrated from GET ${v1Path}`, ...changes.map((c) => comment(`changed: ${c}`))];
  lines.push(...unique(dropped).map((d) => comment(`dropped: ${d}`)));
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
