/**
 * The simulator's own reading of the API document's endpoint table (section 4, "Endpoints", and the
 * base-filter and pagination tables of section 2). Only the route names come from the exporter's
 * route table (`functions/core/config/routes.ts`), so a route added there fails to compile here until
 * the simulator serves it; what each route takes is read independently on purpose: when the two
 * readings disagree, the exporter's tests against the simulator fail instead of sharing one misreading.
 */
import { ROUTES, type Route } from '#core/config/routes';

export type { Route } from '#core/config/routes';

/** The nine data routes under `/v2/`. */
export const SIM_ROUTES: readonly Route[] = ROUTES;

/** The base filters of section 2 ("Query parameters common to all metric endpoints"). */
const BASE_FILTERS = [
  'startDate',
  'endDate',
  'instanceIds',
  'campaignIds',
  'platform',
  'contentType',
  'dateBasis',
  'metrics',
] as const;
/** The pagination parameters of section 2 ("list routes"). */
const PAGING = ['limit', 'nextCursor'] as const;

export interface SimRouteSpec {
  /** Routes 3, 4, 6, 7, 9, 10 reject a request without metrics (rule 1); ROI defaults to all. */
  readonly metrics: 'required' | 'optional' | 'none';
  /** Takes `limit` and `nextCursor`. */
  readonly paged: boolean;
  /** Takes the base filters (and so requires the date range). */
  readonly baseFilters: boolean;
  /** Every query parameter the route accepts (array parameters by their bare name). */
  readonly params: readonly string[];
  /** `data` is one object rather than an array (the instance summary, section 4 row 3). */
  readonly single: boolean;
}

const spec = (
  metrics: SimRouteSpec['metrics'],
  paged: boolean,
  baseFilters: boolean,
  extra: readonly string[] = [],
  single = false,
): SimRouteSpec => ({
  metrics,
  paged,
  baseFilters,
  single,
  params: [...(baseFilters ? BASE_FILTERS : []), ...(paged ? PAGING : []), ...extra],
});

/** The endpoint table, row by row. */
export const SIM_ROUTE_SPECS: Readonly<Record<Route, SimRouteSpec>> = {
  // 2: "limit, nextCursor" — nothing else, not even instanceIds
  instances: spec('none', true, false),
  // 3
  'instances/performance': spec('required', false, true, [], true),
  // 4
  'instances/performance-over-time': spec('required', false, true),
  // 5: "instanceIds, limit, nextCursor"
  campaigns: spec('none', true, false, ['instanceIds']),
  // 6
  'campaigns/performance': spec('required', true, true),
  // 7
  'platforms/performance': spec('required', false, true),
  // 8: "base filters" (metrics among them, optional here: all ROI metrics by default)
  'platforms/return-on-investment': spec('optional', false, true),
  // 9
  'creators/performance': spec('required', true, true),
  // 10
  'posts/performance': spec('required', true, true),
};

/** The parameters that carry arrays (section 2: instanceIds, campaignIds, metrics). */
export const ARRAY_PARAMS = ['metrics', 'instanceIds', 'campaignIds'] as const;

export function isRoute(value: string): value is Route {
  return (SIM_ROUTES as readonly string[]).includes(value);
}
