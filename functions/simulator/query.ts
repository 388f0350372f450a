/**
 * Parsing and validating a data route's query string into a `Query`, or the error the route
 * answers. Arrays are accepted in all three formats (repeat, comma, brackets).
 */
import { CONTENT_TYPES, PLATFORMS, validMetrics } from './catalog';
import { DEFAULT_DIALECT, type Dialect, readArray } from './dialect';
import { type Route, SIM_ROUTE_SPECS } from './routes';
import { dayOf } from './world';

export interface Query {
  route: Route;
  startDate: string;
  endDate: string;
  startDay: number;
  endDay: number;
  metrics: string[];
  platform: string | undefined;
  contentType: string | undefined;
  dateBasis: 'post_date' | 'performance_date';
  /** Indexes of the instances in scope (requested, or all bound). */
  instances: number[];
  campaignIds: string[] | undefined;
}

export interface QueryError {
  status: number;
  title: string;
  detail: string;
  extra?: Record<string, unknown>;
}

const ISO = /^\d{4}-\d{2}-\d{2}$/;
const MAX_DAYS = 400;
const METRICS_REQUIRED = (route: Route) => SIM_ROUTE_SPECS[route].metrics === 'required';

export interface ScopeInfo {
  instanceIds: readonly string[];
  boundCount: number;
}

/** Validates `params` for `route`; `scope` lists instance ids, the first `boundCount` bound. */
export function parseQuery(
  route: Route,
  params: URLSearchParams,
  scope: ScopeInfo,
  dialect: Dialect = DEFAULT_DIALECT,
): Query | QueryError {
  const array = (name: string) => readArray(params, name, dialect);
  const bad = (title: string, detail: string, extra?: Record<string, unknown>): QueryError => ({
    status: 400,
    title,
    detail,
    ...(extra ? { extra } : {}),
  });
  if (array('reportingGroupIds') !== undefined || params.has('reportingGroupIds')) {
    return bad('Unsupported parameter', 'reportingGroupIds was removed in v2 and is not accepted.');
  }
  const spec = SIM_ROUTE_SPECS[route];
  let startDate = '';
  let endDate = '';
  if (spec.baseFilters) {
    startDate = params.get('startDate') ?? '';
    endDate = params.get('endDate') ?? '';
    for (const [name, v] of [
      ['startDate', startDate],
      ['endDate', endDate],
    ] as const) {
      if (v === '') return bad('Missing parameter', `${name} is required (YYYY-MM-DD).`);
      if (
        !ISO.test(v) ||
        Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ||
        new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v
      ) {
        return bad('Invalid parameter', `${name} must be a date in the form YYYY-MM-DD, got "${v}".`);
      }
    }
    if (startDate > endDate)
      return bad('Invalid date range', `startDate ${startDate} is after endDate ${endDate}.`);
    if (dayOf(endDate) - dayOf(startDate) + 1 > MAX_DAYS) {
      return bad('Invalid date range', `the range may span at most ${MAX_DAYS} days.`);
    }
  }
  const platform = params.get('platform') ?? undefined;
  const contentType = params.get('contentType') ?? undefined;
  if (platform !== undefined && contentType !== undefined) {
    return bad('Invalid filters', 'platform and contentType are mutually exclusive; send at most one.');
  }
  if (platform !== undefined && !(PLATFORMS as readonly string[]).includes(platform)) {
    return bad('Invalid parameter', `unknown platform "${platform}"; valid: ${PLATFORMS.join(', ')}.`);
  }
  if (contentType !== undefined && !(contentType in CONTENT_TYPES)) {
    return bad(
      'Invalid parameter',
      `unknown contentType "${contentType}"; valid: ${Object.keys(CONTENT_TYPES).join(', ')}.`,
    );
  }
  const basis = params.get('dateBasis') ?? 'post_date';
  if (basis !== 'post_date' && basis !== 'performance_date') {
    return bad('Invalid parameter', `dateBasis must be post_date or performance_date, got "${basis}".`);
  }
  const filter = { ...(platform ? { platform } : {}), ...(contentType ? { contentType } : {}) };
  let metrics = spec.metrics === 'none' ? [] : (array('metrics') ?? []);
  if (metrics.length === 0 && METRICS_REQUIRED(route)) {
    return bad('Missing parameter', `metrics is required on ${route}.`, {
      validMetrics: validMetrics(route, filter),
    });
  }
  if (spec.metrics === 'optional' && metrics.length === 0) metrics = validMetrics(route, filter);
  if (metrics.length > 0) {
    const valid = validMetrics(route, filter);
    const invalid = metrics.filter((m) => !valid.includes(m));
    if (invalid.length > 0) {
      const on = filter.platform
        ? `platform ${filter.platform}`
        : filter.contentType
          ? `contentType ${filter.contentType}`
          : 'no filter';
      return bad(
        'Invalid metrics',
        `Not valid on ${route} (${on}): ${invalid.join(', ')}. Valid metrics for ${route} with ${on}: ${valid.join(', ')}`,
        { invalidMetrics: invalid, validMetrics: valid },
      );
    }
  }
  // a route that does not take instanceIds (instances) ignores them, as a lenient server would
  const requested = spec.params.includes('instanceIds') ? array('instanceIds') : undefined;
  let instances = Array.from({ length: scope.boundCount }, (_, i) => i);
  if (requested !== undefined && requested.length > 0) {
    const outside = requested.filter((id) => {
      const i = scope.instanceIds.indexOf(id);
      return i < 0 || i >= scope.boundCount;
    });
    if (outside.length > 0) {
      return {
        status: 403,
        title: 'Forbidden instances',
        detail: `instanceIds outside the set bound to this client: ${outside.join(', ')}`,
        extra: { instanceIds: outside },
      };
    }
    instances = requested.map((id) => scope.instanceIds.indexOf(id)).sort((a, b) => a - b);
  }
  const campaignIds = array('campaignIds');
  return {
    route,
    startDate,
    endDate,
    startDay: startDate ? dayOf(startDate) : 0,
    endDay: endDate ? dayOf(endDate) : 0,
    metrics,
    platform,
    contentType,
    dateBasis: basis,
    instances,
    campaignIds: campaignIds && campaignIds.length > 0 ? campaignIds : undefined,
  };
}
