/**
 * The nine v2 data routes, what each accepts, and how v1 paths map onto them.
 * Source: the provider's API document (endpoints and versioning), as read in docs/api-assumptions.md.
 */
export const ROUTES = [
  'instances',
  'instances/performance',
  'instances/performance-over-time',
  'campaigns',
  'campaigns/performance',
  'platforms/performance',
  'platforms/return-on-investment',
  'creators/performance',
  'posts/performance',
] as const;

export type Route = (typeof ROUTES)[number];

/** The picture a report of the route gets in the email: a count, a trend in date order, or ranked rows. */
export type Picture = 'count' | 'trend' | 'ranked';

/**
 * Everything the exporter knows about one route, in one place: adding a route is one entry here (plus
 * the simulator's data), and every `Record<Route, …>` or exhaustive `switch` that must change with it
 * fails to compile until it does.
 */
export interface RouteSpec {
  /** The request path under the base URL. */
  readonly path: `/v2/${string}`;
  /** What `data` holds: an array of rows, or one object (the summary of `instances/performance`). */
  readonly response: 'rows' | 'object';
  /** `required` on the six performance routes, `optional` on ROI, `forbidden` on the two lists. */
  readonly metrics: 'required' | 'optional' | 'forbidden';
  /** List routes take `limit` and `nextCursor`. Others are followed if they send a cursor anyway. */
  readonly paged: boolean;
  /** Allowed filters: whether the route takes the date range and base filters. */
  readonly baseFilters: boolean;
  /** Allowed filters: whether the route takes `instanceIds` (all but `instances`, which takes only limit and nextCursor). */
  readonly instanceIds: boolean;
  /** Whether trackingLinks* / affiliateLinks* metrics can ever be returned. */
  readonly linkMetrics: boolean;
  /** The fields that identify a row on this route, in column order (others follow as they appear). */
  readonly idFields: readonly string[];
  /**
   * The fields every row must carry for the row to be told apart from the others (the silent-loss
   * guard and `check` look for them). Empty on `instances/performance`, whose one row is the summary.
   */
  readonly keyFields: readonly string[];
  /** What one row is, singular and plural, in the words of a reader (`campaign`, `campaigns`). */
  readonly noun: readonly [one: string, many: string];
  /** The report's title in the email when the config gives none. */
  readonly title: string;
  /** The picture in the email. */
  readonly picture: Picture;
  /**
   * `trend` routes: most buckets a report carries to the email, in arrival order (a year of days; the
   * chart groups them). Others: `null` (their email rows are the top-N).
   */
  readonly trendCap: number | null;
}

const LIST = {
  response: 'rows',
  metrics: 'forbidden',
  paged: true,
  baseFilters: false,
  linkMetrics: false,
} as const;
const PERFORMANCE = { response: 'rows', metrics: 'required', baseFilters: true, instanceIds: true } as const;
const RANKED = { picture: 'ranked', trendCap: null } as const;

export const ROUTE_SPECS: Readonly<Record<Route, RouteSpec>> = {
  instances: {
    ...LIST,
    path: '/v2/instances',
    instanceIds: false,
    idFields: ['id', 'name'],
    keyFields: ['id'],
    noun: ['account', 'accounts'],
    title: 'Accounts',
    picture: 'count',
    trendCap: null,
  },
  'instances/performance': {
    ...PERFORMANCE,
    ...RANKED,
    path: '/v2/instances/performance',
    response: 'object',
    paged: false,
    linkMetrics: true,
    idFields: ['instanceId', 'name'],
    keyFields: [],
    noun: ['total', 'totals'],
    title: 'Account totals',
  },
  'instances/performance-over-time': {
    ...PERFORMANCE,
    path: '/v2/instances/performance-over-time',
    paged: false,
    linkMetrics: false,
    idFields: ['startDate', 'endDate'],
    keyFields: ['startDate', 'endDate'],
    noun: ['day', 'days'],
    title: 'Performance over time',
    picture: 'trend',
    trendCap: 366,
  },
  campaigns: {
    ...LIST,
    path: '/v2/campaigns',
    instanceIds: true,
    idFields: ['id', 'name', 'status', 'instanceId'],
    keyFields: ['id'],
    noun: ['campaign', 'campaigns'],
    title: 'Campaigns',
    picture: 'count',
    trendCap: null,
  },
  'campaigns/performance': {
    ...PERFORMANCE,
    ...RANKED,
    path: '/v2/campaigns/performance',
    paged: true,
    linkMetrics: true,
    idFields: ['campaignId', 'name'],
    keyFields: ['campaignId'],
    noun: ['campaign', 'campaigns'],
    title: 'Campaign performance',
  },
  'platforms/performance': {
    ...PERFORMANCE,
    ...RANKED,
    path: '/v2/platforms/performance',
    paged: false,
    linkMetrics: false,
    idFields: ['platform'],
    keyFields: ['platform'],
    noun: ['platform', 'platforms'],
    title: 'Performance by platform',
  },
  'platforms/return-on-investment': {
    ...PERFORMANCE,
    ...RANKED,
    path: '/v2/platforms/return-on-investment',
    metrics: 'optional',
    paged: false,
    linkMetrics: true,
    idFields: ['platform'],
    keyFields: ['platform'],
    noun: ['platform', 'platforms'],
    title: 'Return on investment by platform',
  },
  'creators/performance': {
    ...PERFORMANCE,
    ...RANKED,
    path: '/v2/creators/performance',
    paged: true,
    linkMetrics: true,
    idFields: ['creatorId', 'name'],
    keyFields: ['creatorId'],
    noun: ['creator', 'creators'],
    title: 'Creator performance',
  },
  'posts/performance': {
    ...PERFORMANCE,
    ...RANKED,
    path: '/v2/posts/performance',
    paged: true,
    linkMetrics: false,
    idFields: ['postId'],
    keyFields: ['postId'],
    noun: ['post', 'posts'],
    title: 'Post performance',
  },
};

/** The routes whose spec says `which`, for messages (`campaigns/performance, creators/performance`). */
export function routesWhere(which: (spec: RouteSpec) => boolean): Route[] {
  return ROUTES.filter((r) => which(ROUTE_SPECS[r]));
}

export function isLinkMetric(name: string): boolean {
  return name.startsWith('trackingLinks') || name.startsWith('affiliateLinks');
}

/** v1 path (without query) → the v2 route, or `null` with what replaces a dropped route. */
export const V1_PATHS: Readonly<Record<string, { route: Route | null; note: string }>> = {
  '/v1/reporting/instances': {
    route: 'instances',
    note: 'adds cursor pagination (v1 returned all ids at once)',
  },
  '/v1/reporting/instance/details': {
    route: null,
    note: 'dropped in v2: take metadata from route "instances" and performance from route "instances/performance"',
  },
  '/v1/reporting/instances/details': {
    route: null,
    note: 'dropped in v2: take metadata from route "instances" and performance from route "instances/performance"',
  },
  '/v1/reporting/instance/performance': {
    route: 'instances/performance',
    note: 'path pluralized; metrics are required',
  },
  '/v1/reporting/instance/performance-over-time': {
    route: 'instances/performance-over-time',
    note: 'path pluralized; buckets carry startDate/endDate; metrics are required',
  },
  '/v1/reporting/campaign/performance': {
    route: 'campaigns/performance',
    note: 'path pluralized; metrics are required',
  },
  '/v1/reporting/network/performance': {
    route: 'platforms/performance',
    note: 'network renamed to platforms; metrics are required; smaller allowlist (no trackingLinks*/affiliateLinks*)',
  },
  '/v1/reporting/network/return-on-investment': {
    route: 'platforms/return-on-investment',
    note: 'network renamed to platforms; same response shape',
  },
  '/v1/reporting/influencer/performance': {
    route: 'creators/performance',
    note: 'influencer renamed to creators; metrics are required',
  },
  '/v1/reporting/post/performance': {
    route: 'posts/performance',
    note: 'path pluralized; metrics are required',
  },
};

/** Normalises what a user wrote as a route (`/v1/reporting/x`, `v2/x`, `/x`) to a comparable path. */
export function normaliseV1Path(input: string): string | null {
  const path = input.trim().split('?')[0] ?? '';
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  const noHost = withSlash.replace(/^\/+https?:\/\/[^/]+/, '');
  const m = /\/v1\/reporting\/[a-z/-]+/.exec(noHost);
  return m ? m[0].replace(/\/+$/, '') : null;
}

/** The message for a route string that is not one of the nine v2 routes. */
export function explainBadRoute(input: unknown): string {
  if (typeof input !== 'string') return `route must be one of: ${ROUTES.join(', ')}`;
  const v1 = normaliseV1Path(input);
  if (v1 !== null) {
    const mapped = V1_PATHS[v1];
    if (!mapped) return `"${input}" is a v1 path that v2 does not have; use one of: ${ROUTES.join(', ')}`;
    if (mapped.route === null) return `"${input}" is a v1 path that was ${mapped.note}`;
    return `"${input}" is a v1 path; use route "${mapped.route}" instead (${mapped.note})`;
  }
  const stripped = input.replace(/^\/?v2\//, '').replace(/^\//, '');
  if ((ROUTES as readonly string[]).includes(stripped)) {
    return `write the route without the /v2/ prefix: "${stripped}"`;
  }
  return `unknown route "${input}"; use one of: ${ROUTES.join(', ')}`;
}
