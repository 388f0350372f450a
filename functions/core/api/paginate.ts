/**
 * The one paging loop (docs/api-assumptions.md: page shape, cursor), generic over how a page is fetched.
 *
 * Stop rule: a page whose `nextCursor` is null, absent or "" is the last. A page may hold fewer rows
 * than asked for — even none — and still have a next cursor, so empty pages are followed. Guards:
 * a cursor the server already sent (or the one we resumed at) means the server is looping →
 * API_CURSOR_LOOP; so does a long run of empty pages, which would otherwise page forever.
 *
 * The loop is lazy: the next page is fetched only when the consumer asks for it (back-pressure).
 */
import { ExporterError } from '../errors';
import type { ApiPage } from './types';

export interface RawPage<Row> {
  readonly rows: readonly Row[];
  readonly nextCursor?: string | null;
  readonly cursorElsewhere?: string;
  readonly invalidSequences?: number;
  readonly serverPartial?: ApiPage['serverPartial'];
}

export interface PaginateOptions<Row> {
  /** Fetches the page at `cursor` (null = the first page). */
  readonly fetchPage: (cursor: string | null) => Promise<RawPage<Row>>;
  /** Resume at this cursor. */
  readonly startCursor?: string | null;
  /** What is being paged, for error messages (e.g. `GET /v2/posts/performance`). */
  readonly label: string;
  /** Consecutive empty pages tolerated before giving up. Default 1000. */
  readonly maxEmptyPages?: number;
}

/** The pages in order; each carries the cursor of the page after it (null on the last). */
export async function* paginate<Row extends ApiPage['rows'][number]>(
  options: PaginateOptions<Row>,
): AsyncGenerator<ApiPage, void, undefined> {
  const maxEmpty = options.maxEmptyPages ?? 1000;
  let cursor = options.startCursor ? options.startCursor : null;
  const seen = new Set<string>(cursor === null ? [] : [cursor]);
  let empties = 0;
  // The page just yielded is let go before the next one is awaited: a suspended generator keeps the
  // values of its variables, so a `const` here would hold each page until the next had arrived.
  let page: RawPage<Row> | undefined;
  let out: ApiPage | undefined;
  for (let index = 0; ; index++) {
    page = await options.fetchPage(cursor);
    const next = page.nextCursor ? page.nextCursor : null;
    empties = page.rows.length === 0 ? empties + 1 : 0;
    if (next !== null && seen.has(next)) {
      throw new ExporterError(
        'API_CURSOR_LOOP',
        `${options.label}: page ${index} sent back a cursor it had already sent (the server is looping); stopped after ${index + 1} pages`,
        { retryable: false, details: { label: options.label, page: index } },
      );
    }
    if (next !== null && empties >= maxEmpty) {
      throw new ExporterError(
        'API_CURSOR_LOOP',
        `${options.label}: ${empties} empty pages in a row, each with a new cursor; stopped to avoid paging forever`,
        { retryable: false, details: { label: options.label, page: index } },
      );
    }
    out = {
      rows: page.rows,
      nextCursor: next,
      index,
      ...(next === null && page.cursorElsewhere !== undefined
        ? { cursorElsewhere: page.cursorElsewhere }
        : {}),
      ...(page.invalidSequences ? { invalidSequences: page.invalidSequences } : {}),
      ...(page.serverPartial ? { serverPartial: page.serverPartial } : {}),
    };
    page = undefined;
    yield out;
    out = undefined;
    if (next === null) return;
    seen.add(next);
    cursor = next;
  }
}
