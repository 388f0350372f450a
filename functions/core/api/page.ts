/**
 * The shape of a data-route body (docs/api-assumptions.md: page shape, aggregate routes, rows): `data` is an
 * array of row objects or one row object; `nextCursor` a string, null, or absent. Anything else is
 * API_BAD_RESPONSE — the rows are untrusted and checked only as far as the exporter relies on them.
 */
import * as z from 'zod/mini';
import { ExporterError } from '../errors';
import { keyedRecord } from '../keyed-record';
import { cursorAt, cursorElsewhere, DEFAULT_CURSOR_PATH } from './cursor-location';
import { parseJson } from './json';
import { describeNotJson, problemReport } from './not-data';
import { type ServerPartial, serverPartialOf } from './partial';
import type { ApiRow } from './types';

const RowSchema = keyedRecord(z.unknown());

export const PageBodySchema = z.looseObject({
  data: z.union([z.array(RowSchema), RowSchema]),
  nextCursor: z.nullish(z.string()),
});

export interface ParsedPage {
  readonly rows: readonly ApiRow[];
  readonly nextCursor: string | null;
  /** When `nextCursor` is null: another place in the body that holds a cursor-like value. */
  readonly cursorElsewhere?: string;
  /** See `ApiPage.invalidSequences`. */
  readonly invalidSequences?: number;
  /** See `ApiPage.serverPartial`. */
  readonly serverPartial?: ServerPartial;
}

/** A 2xx answer's decoded body (`./transport`'s Received) and its Content-Type. */
export interface PageBody {
  readonly text: string;
  readonly contentType?: string;
  readonly invalidSequences?: number;
  readonly unlabelledCompression?: 'gzip' | 'zlib';
}

/**
 * Parses a 2xx body; `label` names the request in the error; the cursor is read at `cursorPath`
 * (see ./cursor-location). A problem report or a body that is not JSON is API_BAD_RESPONSE saying
 * what it is (./not-data).
 */
export function parsePage(body: PageBody, label: string, cursorPath = DEFAULT_CURSOR_PATH): ParsedPage {
  const json = parseBody(body, label);
  const problem = problemReport(json, body.text, body.contentType ?? '');
  if (problem !== null) {
    throw new ExporterError(
      'API_BAD_RESPONSE',
      `${label}: the server answered with a problem report instead of data: ${problem}`,
      { retryable: false, details: { label } },
    );
  }
  const page = withExtras(shapeOf(json, label), body, json);
  const nextCursor = cursorPath === DEFAULT_CURSOR_PATH ? page.nextCursor : cursorAt(json, cursorPath, label);
  if (nextCursor !== null) return cursorPath === DEFAULT_CURSOR_PATH ? page : { ...page, nextCursor };
  const elsewhere = cursorElsewhere(json, cursorPath);
  return elsewhere === undefined
    ? { ...page, nextCursor: null }
    : { ...page, nextCursor: null, cursorElsewhere: elsewhere };
}

/** The page with its body's invalid-sequence count and partial-result markers, when there are any. */
function withExtras(page: ParsedPage, body: PageBody, json: unknown): ParsedPage {
  const partial = serverPartialOf(json);
  const invalid = body.invalidSequences ?? 0;
  if (partial === null && invalid === 0) return page;
  return {
    ...page,
    ...(invalid > 0 ? { invalidSequences: invalid } : {}),
    ...(partial !== null ? { serverPartial: partial } : {}),
  };
}

/** The body as JSON, every digit of long numbers kept (./json). */
function parseBody(body: PageBody, label: string): unknown {
  let json: unknown;
  try {
    json = parseJson(body.text);
  } catch {
    const what = describeNotJson(body.text, body.contentType ?? '', body.unlabelledCompression);
    throw new ExporterError(
      'API_BAD_RESPONSE',
      `${label}: the response is not JSON (${body.text.length} characters): ${what}`,
      { retryable: false, details: { label } },
    );
  }
  return json;
}

function shapeOf(json: unknown, label: string): ParsedPage {
  const fast = plainPage(json);
  if (fast) return checkedDepth(fast, label);
  const parsed = PageBodySchema.safeParse(json);
  if (!parsed.success) {
    // the issues name paths and expected types, never the values themselves
    const where = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.code}`).join('; ');
    throw new ExporterError(
      'API_BAD_RESPONSE',
      `${label}: unexpected response shape — expected {"data": [...] | {...}, "nextCursor": string | null} (${where})`,
      { retryable: false, details: { label } },
    );
  }
  const { data, nextCursor } = parsed.data;
  const rows = Array.isArray(data) ? data : [data];
  return checkedDepth({ rows, nextCursor: nextCursor ? nextCursor : null }, label);
}

/**
 * The common case checked without zod (a hot path: zod re-validates and copies every row): an object
 * whose `data` is an array of plain objects (or one plain object) and whose `nextCursor` is a string,
 * null or absent. Anything else goes through the schema, which names what is wrong.
 */
function plainPage(json: unknown): ParsedPage | null {
  if (!isRecord(json)) return null;
  const { data, nextCursor } = json;
  if (!(nextCursor === undefined || nextCursor === null || typeof nextCursor === 'string')) return null;
  const cursor = nextCursor ? nextCursor : null;
  if (!Array.isArray(data)) return isRecord(data) ? { rows: [data], nextCursor: cursor } : null;
  for (const row of data) if (!isRecord(row)) return null;
  return { rows: data as ApiRow[], nextCursor: cursor };
}

function isRecord(value: unknown): value is ApiRow {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How deep objects and arrays may nest inside a row. JSON.parse itself copes with any depth, but
 * flattening and re-serialising nested values recurse: a row nested 20,000 deep would end in a bare
 * "Maximum call stack size exceeded". No report row is anywhere near this deep.
 */
export const MAX_ROW_DEPTH = 32;

/** The page, or API_BAD_RESPONSE naming the row when one nests deeper than MAX_ROW_DEPTH. */
function checkedDepth(page: ParsedPage, label: string): ParsedPage {
  page.rows.forEach((row, index) => {
    if (!withinDepth(row, MAX_ROW_DEPTH)) {
      throw new ExporterError(
        'API_BAD_RESPONSE',
        `${label}: row ${index} of a page nests objects or arrays more than ${MAX_ROW_DEPTH} levels deep; the exporter refuses such a response rather than flatten it`,
        { retryable: false, details: { label, row: index, maxDepth: MAX_ROW_DEPTH } },
      );
    }
  });
  return page;
}

/**
 * Whether `root` nests at most `max` levels. Recursion stops at `max`, so the stack stays shallow
 * whatever the input; scalars are skipped without allocating anything (a hot path: every row of every
 * page, most of them a few flat objects).
 */
function withinDepth(root: unknown, max: number): boolean {
  return nestsWithin(root as object, max - 1);
}

/** Whether `value`'s children nest at most `left` more levels. */
function nestsWithin(value: object, left: number): boolean {
  // an array's elements by index: for-in would make a string of every index (a row's hashtags)
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (typeof child === 'object' && child !== null && (left === 0 || !nestsWithin(child, left - 1)))
        return false;
    }
    return true;
  }
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (typeof child !== 'object' || child === null) continue;
    if (left === 0 || !nestsWithin(child, left - 1)) return false;
  }
  return true;
}
