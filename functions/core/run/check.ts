/**
 * `check`: a preflight against the live API, writing nothing. For each report it asks for one small
 * page of a short window and says what came back: status, rows, which requested metrics returned,
 * whether the route's identifying fields are there, and where the cursor sits. When metrics are
 * missing it asks again in the other array encodings and names the one the server understands.
 */
import type { ArrayFormat, ReportingApi } from '../api/types';
import { validMetricsOf } from '../config/known-metrics';
import { ROUTE_SPECS } from '../config/routes';
import type { Config, ReportConfig } from '../config/schema';
import { describeError } from '../errors';
import type { Window } from '../manifest';
import { reportRequest } from './request';

export interface CheckResult {
  readonly reportId: string;
  readonly route: string;
  readonly ok: boolean;
  readonly rows: number;
  readonly metricsReturned: readonly string[];
  readonly metricsMissing: readonly string[];
  /** The route's identifying fields absent from the rows (empty when all present or no rows). */
  readonly idFieldsMissing: readonly string[];
  /** `at nextCursor`, `none (one page)`, `elsewhere: meta.nextCursor`, `not paged`. */
  readonly cursor: string;
  /** When metrics were missing: the array encoding that returned them all, if any. */
  readonly arrayFormatThatWorks?: ArrayFormat | null;
  readonly error?: string;
  /** When the server answered 400 naming the valid metric names: that set (for `validate`). */
  readonly validMetrics?: readonly string[];
}

/** Makes a client for one encoding (the caller closes it). */
export type ClientFor = (arrayFormat: ArrayFormat) => ReportingApi;

const FORMATS: readonly ArrayFormat[] = ['repeat', 'comma', 'brackets'];

interface FirstPage {
  rows: readonly Readonly<Record<string, unknown>>[];
  cursor: string | null;
  elsewhere: string | undefined;
}

async function firstPage(api: ReportingApi, report: ReportConfig, window: Window): Promise<FirstPage> {
  for await (const page of api.pages(reportRequest(report, window))) {
    return { rows: page.rows, cursor: page.nextCursor, elsewhere: page.cursorElsewhere };
  }
  return { rows: [], cursor: null, elsewhere: undefined };
}

function returned(rows: FirstPage['rows'], metrics: readonly string[]): string[] {
  return metrics.filter((m) =>
    rows.some((r) => typeof r.metrics === 'object' && r.metrics !== null && Object.hasOwn(r.metrics, m)),
  );
}

async function withClient<T>(make: ClientFor, format: ArrayFormat, use: (api: ReportingApi) => Promise<T>) {
  const api = make(format);
  try {
    return await use(api);
  } finally {
    await api.close();
  }
}

/** The first other array encoding in which the server returns every requested metric, or null. */
async function otherFormat(
  config: Config,
  report: ReportConfig,
  window: Window,
  clientFor: ClientFor,
): Promise<ArrayFormat | null> {
  const metrics = report.metrics ?? [];
  for (const format of FORMATS.filter((f) => f !== config.api.arrayFormat)) {
    try {
      const other = await withClient(clientFor, format, (api) => firstPage(api, report, window));
      if (other.rows.length > 0 && returned(other.rows, metrics).length === metrics.length) return format;
    } catch {
      // this encoding is refused outright: try the next
    }
  }
  return null;
}

/** Checks one report; never throws for API failures (they become `error`). */
export async function checkReport(
  config: Config,
  report: ReportConfig,
  window: Window,
  clientFor: ClientFor,
): Promise<CheckResult> {
  const spec = ROUTE_SPECS[report.route];
  const metrics = report.metrics ?? [];
  const base = { reportId: report.id, route: report.route };
  let page: FirstPage;
  try {
    page = await withClient(clientFor, config.api.arrayFormat, (api) => firstPage(api, report, window));
  } catch (err: unknown) {
    // a server strict about its array encoding answers 400 to ours: see whether another one works
    const works = metrics.length > 0 ? await otherFormat(config, report, window, clientFor) : undefined;
    const validMetrics = validMetricsOf(err);
    return {
      ...base,
      ok: false,
      rows: 0,
      metricsReturned: [],
      metricsMissing: [],
      idFieldsMissing: [],
      cursor: 'unknown',
      error: describeError(err),
      ...(works ? { arrayFormatThatWorks: works } : {}),
      ...(validMetrics ? { validMetrics } : {}),
    };
  }
  const got = returned(page.rows, metrics);
  const missing = metrics.filter((m) => !got.includes(m));
  const idFieldsMissing =
    page.rows.length === 0
      ? []
      : spec.keyFields.filter((f) => page.rows.some((r) => r[f] === undefined || r[f] === null));
  const cursor =
    page.cursor !== null
      ? `at ${config.api.cursorPath}`
      : page.elsewhere !== undefined
        ? `not at ${config.api.cursorPath} but at ${page.elsewhere}: set api.cursorPath: ${page.elsewhere}`
        : spec.paged
          ? 'none (a single page)'
          : 'not paged';
  const works =
    missing.length > 0 && page.rows.length > 0
      ? await otherFormat(config, report, window, clientFor)
      : undefined;
  return {
    ...base,
    ok: missing.length === 0 && idFieldsMissing.length === 0 && page.elsewhere === undefined,
    rows: page.rows.length,
    metricsReturned: got,
    metricsMissing: missing,
    idFieldsMissing,
    cursor,
    ...(works !== undefined ? { arrayFormatThatWorks: works } : {}),
  };
}

/** One line (or two) per report for the terminal. */
export function describeCheck(r: CheckResult, configured: ArrayFormat): string {
  const head = `${r.reportId} (${r.route}): ${r.error ? 'FAILED' : r.ok ? 'ok' : 'PROBLEM'}`;
  if (r.error) {
    const fix = r.arrayFormatThatWorks
      ? `\n  with arrays as "${r.arrayFormatThatWorks}" instead of "${configured}" the server answers: set api.arrayFormat: ${r.arrayFormatThatWorks}`
      : '';
    return `${head} — ${errorOnce(r)}${fix}${validList(r)}`;
  }
  const parts = [`${r.rows} row(s) on the first page`];
  const total = r.metricsReturned.length + r.metricsMissing.length;
  if (total > 0) {
    parts.push(
      r.metricsMissing.length === 0
        ? `metrics ${total}/${total} returned`
        : `metrics ${r.metricsReturned.length}/${total} returned (missing: ${r.metricsMissing.join(', ')})`,
    );
  }
  parts.push(
    r.idFieldsMissing.length === 0
      ? 'identifying fields present'
      : `identifying fields missing: ${r.idFieldsMissing.join(', ')}`,
  );
  parts.push(`cursor ${r.cursor}`);
  let line = `${head} — ${parts.join('; ')}`;
  if (r.arrayFormatThatWorks) {
    line += `\n  the server returns every metric with arrays as "${r.arrayFormatThatWorks}", not "${configured}": set api.arrayFormat: ${r.arrayFormatThatWorks}`;
  } else if (r.arrayFormatThatWorks === null) {
    line +=
      '\n  no array encoding returned every metric: the missing ones may not exist on this route or filter';
  }
  return line;
}

/** Width of the wrapped list of valid metric names (indent included). */
const WRAP = 100;

/**
 * The error without the valid names in it: the exporter's own "(valid metrics named by the server: …)"
 * tail is dropped and the server's own listing, when it has the same names in the same order, points
 * to the list printed below instead, so the set appears once.
 */
function errorOnce(r: CheckResult): string {
  const error = r.error ?? '';
  const names = r.validMetrics ?? [];
  if (names.length === 0) return error;
  const joined = names.join(', ');
  return error
    .replace(` (valid metrics named by the server: ${joined})`, '')
    .replace(joined, `(the ${names.length} names below)`);
}

/** The valid set a 400 named, once, wrapped at `WRAP` columns under the report's line. */
function validList(r: CheckResult): string {
  const names = r.validMetrics ?? [];
  if (names.length === 0) return '';
  const lines: string[] = [];
  let line = '';
  for (const name of names) {
    const next = line === '' ? `    ${name}` : `${line}, ${name}`;
    if (next.length > WRAP && line !== '') {
      lines.push(`${line},`);
      line = `    ${name}`;
    } else line = next;
  }
  lines.push(line);
  return `\n  valid metrics on ${r.route} (${names.length}), as the server listed them:\n${lines.join('\n')}`;
}
