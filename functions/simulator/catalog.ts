/**
 * The simulator's metric catalogue: every metric name, how it aggregates, on which content types it
 * exists, and which routes accept it. The seed document names the groups but not the lists; these
 * lists follow its availability rules (tracking/affiliate only on campaigns, creators and the
 * instance summary; platforms/performance smaller; over-time narrower).
 */
import type { Route } from './routes';

export const PLATFORMS = ['instagram', 'tiktok', 'youtube', 'facebook'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const CONTENT_TYPES = {
  instagram_post: 'instagram',
  instagram_reel: 'instagram',
  instagram_story: 'instagram',
  tiktok_video: 'tiktok',
  youtube_shorts: 'youtube',
  youtube_video: 'youtube',
  facebook_post: 'facebook',
  facebook_video: 'facebook',
  facebook_story: 'facebook',
} as const satisfies Record<string, Platform>;
export type ContentType = keyof typeof CONTENT_TYPES;
export const CONTENT_TYPE_LIST = Object.keys(CONTENT_TYPES) as ContentType[];

/** `count`: additive integer; `money`: additive, 2 decimals (kept in cents); `ratio`: computed per row. */
export type MetricKind = 'count' | 'money' | 'ratio';

export interface MetricDef {
  readonly name: string;
  readonly kind: MetricKind;
  /** Content types on which the metric exists; others serve null. */
  readonly on: readonly ContentType[];
}

const ALL = CONTENT_TYPE_LIST;
const VIDEO: ContentType[] = [
  'instagram_reel',
  'instagram_story',
  'tiktok_video',
  'youtube_shorts',
  'youtube_video',
  'facebook_video',
];
const STORY: ContentType[] = ['instagram_story', 'facebook_story'];
const SAVES: ContentType[] = ['instagram_post', 'instagram_reel', 'tiktok_video'];

function m(name: string, kind: MetricKind, on: readonly ContentType[] = ALL): MetricDef {
  return { name, kind, on };
}

export const CORE = ['likes', 'comments', 'shares', 'clicks', 'views', 'impressions'];
const CORE_DEFS = CORE.map((n) => m(n, 'count'));
const ORGANIC_EXTRA = [m('saves', 'count', SAVES), m('totalInteractions', 'count')];
const DERIVED = [m('engagementRate', 'ratio'), m('reach', 'ratio'), m('frequency', 'ratio')];
const FORMAT = [
  m('crosspostedViews', 'count', ['instagram_reel']),
  m('crosspostedFacebookOnlyViews', 'count', ['instagram_reel']),
  m('videoViewTotalTime', 'count', VIDEO),
  m('avgWatchTime', 'ratio', VIDEO),
  m('navigationTapForward', 'count', STORY),
  m('navigationTapBack', 'count', STORY),
  m('navigationTapExit', 'count', STORY),
];
const PAID_COUNTERS = ['paidImpressions', 'paidEngagements', 'paidClicks'].map((n) => m(n, 'count'));
const PAID = [...PAID_COUNTERS, m('paidAdSpend', 'money')];
const COST = [m('cost', 'money'), m('revenue', 'money'), m('returnOnInvestment', 'ratio')];
const LINKS = [
  m('trackingLinksClicks', 'count'),
  m('trackingLinksRevenue', 'money'),
  m('affiliateLinksClicks', 'count'),
  m('affiliateLinksRevenue', 'money'),
];

/** Every metric the simulator knows, by name. */
export const METRICS: ReadonlyMap<string, MetricDef> = new Map(
  [...CORE_DEFS, ...ORGANIC_EXTRA, ...DERIVED, ...FORMAT, ...PAID, ...COST, ...LINKS].map((d) => [d.name, d]),
);

const names = (defs: readonly MetricDef[]) => defs.map((d) => d.name);
/** ROI: money in and out per platform; also the default set when the request names no metrics. */
const ROI = [
  'paidAdSpend',
  'cost',
  'revenue',
  'returnOnInvestment',
  'trackingLinksRevenue',
  'affiliateLinksRevenue',
];
const FULL = [...CORE_DEFS, ...ORGANIC_EXTRA, ...DERIVED, ...FORMAT, ...PAID];

/** Metric allowlist per route, in catalogue order. The two list routes take no metrics. */
export const ROUTE_METRICS: Readonly<Record<Route, readonly string[]>> = {
  instances: [],
  campaigns: [],
  'instances/performance': names([...FULL, ...COST, ...LINKS]),
  'instances/performance-over-time': names([...CORE_DEFS, ...PAID_COUNTERS]),
  'campaigns/performance': names([...FULL, ...COST, ...LINKS]),
  'platforms/performance': names([...CORE_DEFS, ...ORGANIC_EXTRA, ...DERIVED, ...PAID]),
  'platforms/return-on-investment': ROI,
  'creators/performance': names([...FULL, ...COST, ...LINKS]),
  'posts/performance': names(FULL),
};

/**
 * Valid metric names for a route under an optional platform or contentType filter: without a
 * filter every metric of the route; with one, only those that exist on at least one matching type.
 */
export function validMetrics(
  route: Route,
  filter: { platform?: string; contentType?: string } = {},
): string[] {
  const types = CONTENT_TYPE_LIST.filter(
    (t) =>
      (filter.platform === undefined || CONTENT_TYPES[t] === filter.platform) &&
      (filter.contentType === undefined || t === filter.contentType),
  );
  return ROUTE_METRICS[route].filter((n) => {
    const def = METRICS.get(n);
    return (
      def !== undefined &&
      (filter.platform === undefined && filter.contentType === undefined
        ? true
        : def.on.some((t) => types.includes(t)))
    );
  });
}
