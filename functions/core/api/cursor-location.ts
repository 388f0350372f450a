/**
 * Where a page carries its next cursor. The API document says only that the cursor "is returned in
 * the response"; the exporter reads it at `api.cursorPath` (default `nextCursor`, at the top level of
 * the body). When nothing is there, it looks in the other places servers commonly use, so that a
 * page which ends paging can say where a cursor was found instead (the silent-loss guard, `check`).
 */
import { ExporterError } from '../errors';

export const DEFAULT_CURSOR_PATH = 'nextCursor';

/** A dotted path of plain property names: `nextCursor`, `meta.nextCursor`, `paging.cursors.after`. */
export const CURSOR_PATH = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*){0,4}$/;

/** Places a cursor often sits, searched (after `cursorPath`) when the page has none there. */
const PLAUSIBLE = [
  'nextCursor',
  'next_cursor',
  'cursor',
  'next',
  'meta.nextCursor',
  'meta.next_cursor',
  'meta.cursor',
  'meta.next',
  'pagination.nextCursor',
  'pagination.next_cursor',
  'pagination.cursor',
  'pagination.next',
  'paging.nextCursor',
  'paging.next',
  'paging.cursors.after',
  'pageInfo.endCursor',
  'links.next',
  '_links.next.href',
];

function at(json: unknown, path: string): unknown {
  let value: unknown = json;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    if (!Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The cursor at `path` (null for null, absent or ""); API_BAD_RESPONSE for any other type there. */
export function cursorAt(json: unknown, path: string, label: string): string | null {
  const value = at(json, path);
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string') return value;
  throw new ExporterError(
    'API_BAD_RESPONSE',
    `${label}: "${path}" in the response is a ${Array.isArray(value) ? 'list' : typeof value}, not a cursor string`,
    { retryable: false, details: { label } },
  );
}

/** The first other plausible place that holds a non-empty cursor-like value, or undefined. */
export function cursorElsewhere(json: unknown, path: string): string | undefined {
  return PLAUSIBLE.find((p) => {
    if (p === path) return false;
    const v = at(json, p);
    return (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v));
  });
}
