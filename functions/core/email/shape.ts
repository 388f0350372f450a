/**
 * Which picture fits a report: list routes (`instances`, `campaigns`) are a count, the over-time route a
 * trend in date order, others their KPI totals plus a top-N list where `topBy` is set. Also the words
 * for a report's rows and the one line saying what a report covers.
 */
import type { ReportConfig } from '../config/schema';
import { humanise } from './labels';

export type Shape = 'count' | 'trend' | 'ranked';

/** Most buckets an over-time report carries to the email (a year of days); the chart groups them. */
export const MAX_TREND_POINTS = 366;

export const isOverTime = (route: string): boolean => route === 'instances/performance-over-time';
export const isList = (route: string): boolean => route === 'instances' || route === 'campaigns';

export function shapeOf(route: string): Shape {
  if (isList(route)) return 'count';
  return isOverTime(route) ? 'trend' : 'ranked';
}

/** What one row of a route is, singular and plural. */
const NOUNS: Readonly<Record<string, readonly [string, string]>> = {
  instances: ['instance', 'instances'],
  campaigns: ['campaign', 'campaigns'],
  'campaigns/performance': ['campaign', 'campaigns'],
  'creators/performance': ['creator', 'creators'],
  'posts/performance': ['post', 'posts'],
  'platforms/performance': ['platform', 'platforms'],
  'platforms/return-on-investment': ['platform', 'platforms'],
  'instances/performance-over-time': ['day', 'days'],
};

/** `12 campaigns`, `1 creator`; `rows` for routes whose rows are not one thing. */
export function rowNoun(route: string, n: number): string {
  const [one, many] = NOUNS[route] ?? ['row', 'rows'];
  return n === 1 ? one : many;
}

/** A title when the config gives none. */
const ROUTE_TITLES: Readonly<Record<string, string>> = {
  instances: 'Instances',
  campaigns: 'Campaigns',
  'instances/performance': 'Account totals',
  'instances/performance-over-time': 'Performance over time',
  'campaigns/performance': 'Campaign performance',
  'platforms/performance': 'Performance by platform',
  'platforms/return-on-investment': 'Return on investment by platform',
  'creators/performance': 'Creator performance',
  'posts/performance': 'Post performance',
};

export function reportTitle(report: { readonly title?: string | undefined; readonly route: string }): string {
  return report.title ?? ROUTE_TITLES[report.route] ?? humanise(report.route);
}

/** One line on what a report covers: platform or content type, instances, campaigns, date basis. */
export function coverageLine(report: Pick<ReportConfig, 'route' | 'filters'>): string {
  const f = report.filters;
  const ids = (n: number, what: string) =>
    n === 0 ? `all ${what}s` : `${n} selected ${what}${n === 1 ? '' : 's'}`;
  if (isList(report.route)) return `${capital(ids(f.instanceIds.length, 'instance'))} the API client can see`;
  const parts: string[] = [];
  if (f.platform) parts.push(`${humanise(f.platform)} only`);
  else if (f.contentType) parts.push(`${humanise(f.contentType)}s only`);
  else parts.push('all platforms');
  parts.push(ids(f.instanceIds.length, 'instance'));
  if (f.campaignIds.length > 0) parts.push(ids(f.campaignIds.length, 'campaign'));
  parts.push(
    f.dateBasis === 'performance_date'
      ? 'by the date of the activity'
      : f.dateBasis === 'post_date'
        ? 'by the date of the post'
        : 'by the date of the post (the API default)',
  );
  return capital(parts.join(' · '));
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
