/**
 * Which picture fits a report (the route spec's `picture`: a count, a trend in date order, or KPI totals
 * plus a top-N list where `topBy` is set), the words for a report's rows, and the one line saying what
 * a report covers.
 */
import { type Picture, ROUTE_SPECS, ROUTES, type Route, type RouteSpec } from '../config/routes';
import type { ReportConfig } from '../config/schema';
import { humanise } from './labels';

export type Shape = Picture;

/** The spec of a manifest's route (a string there), or undefined for a route this version does not know. */
export function specOf(route: string): RouteSpec | undefined {
  return (ROUTES as readonly string[]).includes(route) ? ROUTE_SPECS[route as Route] : undefined;
}

const isList = (route: string): boolean => specOf(route)?.picture === 'count';

export function shapeOf(route: string): Shape {
  return specOf(route)?.picture ?? 'ranked';
}

/** `12 campaigns`, `1 creator`; `rows` for routes whose rows are not one thing. */
export function rowNoun(route: string, n: number): string {
  const [one, many] = specOf(route)?.noun ?? ['row', 'rows'];
  return n === 1 ? one : many;
}

export function reportTitle(report: { readonly title?: string | undefined; readonly route: string }): string {
  return report.title ?? specOf(report.route)?.title ?? humanise(report.route);
}

/** What the email calls the API's instances: `account`/`accounts`, or the config's `email.accountTerm`. */
export interface AccountTerm {
  readonly one: string;
  readonly many: string;
}
export const ACCOUNTS: AccountTerm = { one: 'account', many: 'accounts' };

/** A route's row noun with the account term applied (`instances` rows are accounts). */
export function nounWithTerm(route: string, n: number, term: AccountTerm = ACCOUNTS): string {
  const word = rowNoun(route, n);
  if (word === ACCOUNTS.one) return term.one;
  return word === ACCOUNTS.many ? term.many : word;
}

/**
 * One line on what a report covers, in a reader's words: platform or content type, which accounts
 * (and campaigns), and the date basis (`Instagram only · all accounts · by the date of the post`).
 */
export function coverageLine(
  report: Pick<ReportConfig, 'route' | 'filters'>,
  term: AccountTerm = ACCOUNTS,
): string {
  const f = report.filters;
  const ids = (n: number, one: string, many: string) =>
    n === 0 ? `all ${many}` : `${n} selected ${n === 1 ? one : many}`;
  const accounts = ids(f.instanceIds.length, term.one, term.many);
  if (isList(report.route)) return capital(accounts);
  const parts: string[] = [];
  if (f.platform) parts.push(`${humanise(f.platform)} only`);
  else if (f.contentType) parts.push(`${humanise(f.contentType)}s only`);
  else parts.push('all platforms');
  parts.push(accounts);
  if (f.campaignIds.length > 0) parts.push(ids(f.campaignIds.length, 'campaign', 'campaigns'));
  parts.push(f.dateBasis === 'performance_date' ? 'by the date of the activity' : 'by the date of the post');
  return capital(parts.join(' · '));
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
