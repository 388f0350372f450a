/**
 * How `migrate-v1` sorts the query parameters of a v1 URL: which are v2 filters, which are paging
 * (v2 pages by cursor, so all paging names are dropped, known or not), which look like credentials
 * (dropped, never printed), which are sorting (kept: sorting is unchanged in v2, its names are not
 * documented), and which v2 does not take at all (dropped).
 */

/** Parameters that carry arrays, in any style (`x=a&x=b`, `x[]=a`, `x[0]=a`, `x=a,b`). */
export const ARRAY_PARAMS = new Set(['instanceIds', 'campaignIds', 'metrics', 'reportingGroupIds']);

/** v2's own filter parameters that go under a report's `filters`. */
export const FILTER_PARAMS = ['platform', 'contentType', 'dateBasis'] as const;

const PAGING =
  /^(page|pages|pagenumber|pageno|pagenum|pageindex|pagesize|page_size|page_number|perpage|per_page|limit|offset|skip|take|top|size|count|cursor|nextcursor|next|after|before|start|startindex)$/i;
/** `page[size]`, `page[number]`, `page.size`, `paging[offset]`… */
const PAGING_OBJECT = /^(page|paging|pagination)[[.]/i;

const CREDENTIAL =
  /(token|secret|password|passwd|pwd|signature|credential|api[-_]?key|apikey|private[-_]?key|session|^key$|^sig$|^auth$|^authorization$|^client[-_]?id$|^code$)/i;

const SORTING =
  /^(sort|sortby|sort_by|sortorder|sort_order|order|orderby|order_by|direction|dir|sortdirection)$/i;

export type ParamKind = 'managed' | 'filter' | 'paging' | 'credential' | 'sorting' | 'unknown';

/** What a query key is to the migration. */
export function classifyParam(key: string): ParamKind {
  if (ARRAY_PARAMS.has(key) || key === 'startDate' || key === 'endDate') return 'managed';
  if ((FILTER_PARAMS as readonly string[]).includes(key)) return 'filter';
  // credentials first: `pageToken` or `nextPageToken` must never be carried anywhere
  if (CREDENTIAL.test(key)) return 'credential';
  if (PAGING.test(key) || PAGING_OBJECT.test(key)) return 'paging';
  if (SORTING.test(key)) return 'sorting';
  return 'unknown';
}

/** Why a parameter of `kind` is dropped (the value is never part of the note). */
export function dropNote(key: string, kind: ParamKind, route: string): string | null {
  switch (kind) {
    case 'paging':
      return `${key}: v2 pages with a cursor (limit + nextCursor), which the exporter follows; page size is api.pageSize`;
    case 'credential':
      return `${key}: looks like a credential and is never copied into the config (the exporter gets its token with api.credentialsSecret); if this URL was shared, rotate that credential`;
    case 'unknown':
      return `${key}: not a v2 parameter of route "${route}" (v2 takes the base filters, metrics, limit and nextCursor)`;
    default:
      return null;
  }
}

/** Query keys normalised across array styles: `x=a&x=b`, `x[]=a`, `x[0]=a`, `x=a,b`. */
export function readQuery(params: URLSearchParams): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [rawKey, value] of params) {
    const key = rawKey.replace(/\[\d*\]$/, '');
    const values = ARRAY_PARAMS.has(key) ? value.split(',').map((v) => v.trim()) : [value];
    out.set(key, [...(out.get(key) ?? []), ...values.filter((v) => v !== '')]);
  }
  return out;
}
