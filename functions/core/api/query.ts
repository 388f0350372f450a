/**
 * The query string of a data-route request (docs/api-assumptions.md). Written by hand rather than with
 * URLSearchParams so the three array formats come out exactly as documented (`metrics[]=a`,
 * `metrics=a,b`) while every key and value — cursors with `+ / =` included — is percent-encoded.
 */
import { ROUTE_SPECS, type Route } from '../config/routes';
import type { ArrayFormat, ReportRequest } from './types';

export interface QueryOptions {
  readonly arrayFormat: ArrayFormat;
  /** `limit` on list routes. */
  readonly pageSize: number;
  /** The cursor of the page to fetch; null/undefined for the first page. */
  readonly cursor?: string | null;
}

const enc = encodeURIComponent;

/** `key=value` pairs for one array parameter in the chosen format; nothing for an empty array. */
export function encodeArray(key: string, values: readonly string[], format: ArrayFormat): string[] {
  if (values.length === 0) return [];
  switch (format) {
    case 'repeat':
      return values.map((v) => `${enc(key)}=${enc(v)}`);
    case 'brackets':
      // the brackets stay literal, as the contract shows them; servers decode either spelling
      return values.map((v) => `${enc(key)}[]=${enc(v)}`);
    case 'comma':
      // the separator stays a literal comma; a comma inside a value is encoded as %2C
      return [`${enc(key)}=${values.map(enc).join(',')}`];
  }
}

/**
 * The query string (without `?`) for one page of `request`. Dates and the base filters go only to
 * routes that take them; filters only when set; `params` verbatim; `limit` on list routes; and
 * `nextCursor` when continuing (on any route that sent one back).
 */
export function buildQuery(request: ReportRequest, options: QueryOptions): string {
  const spec = ROUTE_SPECS[request.route];
  const parts: string[] = [];
  const one = (key: string, value: string | number | boolean | undefined) => {
    if (value !== undefined && value !== '') parts.push(`${enc(key)}=${enc(String(value))}`);
  };
  const f = request.filters;
  if (spec.baseFilters) {
    one('startDate', request.startDate);
    one('endDate', request.endDate);
  }
  if (spec.metrics !== 'forbidden' && request.metrics) {
    parts.push(...encodeArray('metrics', request.metrics, options.arrayFormat));
  }
  if (spec.baseFilters) {
    one('platform', f.platform);
    one('contentType', f.contentType);
    one('dateBasis', f.dateBasis);
  }
  if (spec.instanceIds) parts.push(...encodeArray('instanceIds', f.instanceIds ?? [], options.arrayFormat));
  if (spec.baseFilters) parts.push(...encodeArray('campaignIds', f.campaignIds ?? [], options.arrayFormat));
  for (const [key, value] of Object.entries(request.params ?? {})) one(key, value);
  if (spec.paged) one('limit', options.pageSize);
  if (options.cursor) one('nextCursor', options.cursor);
  return parts.join('&');
}

/** `{baseUrl}{the route's path}?{query}`; a path in `baseUrl` (e.g. `/api`) is kept. */
export function dataUrl(baseUrl: string, route: Route, query: string): string {
  const base = baseUrl.replace(/\/+$/, '') + ROUTE_SPECS[route].path;
  return query === '' ? base : `${base}?${query}`;
}

/** `{baseUrl}/oauth/token`. */
export function tokenUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/oauth/token`;
}
