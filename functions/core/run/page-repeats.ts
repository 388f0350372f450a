/**
 * Paging that always ends. A server that ignores the cursor and serves page 1 again with a fresh
 * cursor each time never sends a cursor twice (so the client's cursor-loop guard stays quiet) and
 * never an empty page: without this, an export pages forever, its part files growing without bound
 * and its window's lease held until the workflow's timeout. So each page gets a fingerprint (its row
 * identities, order-independent; its rows' JSON on routes without identities) and:
 *
 * - a page whose rows all repeat rows already exported, or whose fingerprint equals one of the last
 *   `RECENT_PAGES` pages' (a cycle of identical pages), is a *repeated page*; `maxRepeatedPages`
 *   repeated pages in a row fail the report with API_CURSOR_LOOP, before the last is written;
 * - more than `maxPages` pages in one report fail it with API_PAGE_LIMIT;
 * - `MAX_EMPTY_PAGES` empty pages in a row, each with a new cursor, fail it with API_CURSOR_LOOP (the
 *   client's own guard counts them only within one Export step).
 *
 * The fingerprints of the last pages, the run of repeated pages and the page count travel in the
 * export checkpoint (a few hundred bytes), so a server looping across Lambda continuations is caught
 * as in one CLI process.
 */
import * as z from 'zod/mini';
import { ExporterError } from '../errors';

/** Fingerprints remembered, across continuations too (≈ 1 KB of checkpoint). */
export const RECENT_PAGES = 64;
/** Empty pages in a row tolerated (as the client's paging loop within one step). */
export const MAX_EMPTY_PAGES = 1000;

export const PageRepeatsStateSchema = z.object({
  recent: z.array(z.number()),
  run: z.int().check(z.nonnegative()),
  pages: z.int().check(z.nonnegative()),
  /** Empty pages in a row (each with a new cursor). */
  empties: z.optional(z.int().check(z.nonnegative())),
});
export type PageRepeatsState = z.infer<typeof PageRepeatsStateSchema>;

export interface PageRepeatsOptions {
  /** `GET /v2/posts/performance`, for messages. */
  readonly label: string;
  /** `api.maxRepeatedPages`. */
  readonly maxRepeatedPages: number;
  /** `api.maxPages`. */
  readonly maxPages: number;
}

/** What the silent-loss guards learnt of one page's rows. */
export interface PageRows {
  readonly rows: number;
  /** Rows whose identity was already exported. */
  readonly repeatedRows: number;
  /** Order-independent hash of the page's rows; null for an empty page. */
  readonly fingerprint: number | null;
}

export class PageRepeats {
  private readonly recent: number[];
  private run: number;
  private pages: number;
  private empties: number;

  constructor(
    private readonly o: PageRepeatsOptions,
    from?: PageRepeatsState,
  ) {
    this.recent = [...(from?.recent ?? [])];
    this.run = from?.run ?? 0;
    this.pages = from?.pages ?? 0;
    this.empties = from?.empties ?? 0;
  }

  /**
   * Counts one page before it is written; throws API_CURSOR_LOOP or API_PAGE_LIMIT when paging must
   * stop. Returns whether the page repeats an earlier one.
   */
  observe(page: PageRows): boolean {
    this.pages += 1;
    if (this.pages > this.o.maxPages) {
      throw new ExporterError(
        'API_PAGE_LIMIT',
        `${this.o.label}: the report passed ${this.o.maxPages} pages (api.maxPages) and was stopped; the server may be paging without end — if the report really is this large, raise api.maxPages or narrow the report (fewer instanceIds, a shorter window)`,
        { details: { label: this.o.label, pages: this.pages, maxPages: this.o.maxPages } },
      );
    }
    this.empties = page.rows === 0 ? this.empties + 1 : 0;
    if (this.empties >= MAX_EMPTY_PAGES) {
      throw new ExporterError(
        'API_CURSOR_LOOP',
        `${this.o.label}: ${this.empties} empty pages in a row, each with a new cursor; stopped at page ${this.pages} to avoid paging forever`,
        { details: { label: this.o.label, page: this.pages } },
      );
    }
    const { fingerprint } = page;
    const repeated =
      page.rows > 0 &&
      (page.repeatedRows === page.rows || (fingerprint !== null && this.recent.includes(fingerprint)));
    this.run = repeated ? this.run + 1 : 0;
    if (fingerprint !== null && !this.recent.includes(fingerprint)) {
      this.recent.push(fingerprint);
      if (this.recent.length > RECENT_PAGES) this.recent.shift();
    }
    if (this.run >= this.o.maxRepeatedPages) {
      throw new ExporterError(
        'API_CURSOR_LOOP',
        `${this.o.label}: ${this.run} pages in a row held only rows already exported (the server seems to ignore the cursor and serve the same page again with a new cursor); stopped at page ${this.pages} so the files do not grow without end. Report it to the API provider; api.maxRepeatedPages (now ${this.o.maxRepeatedPages}) sets how many such pages are tolerated`,
        { details: { label: this.o.label, page: this.pages, repeatedPages: this.run } },
      );
    }
    return repeated;
  }

  snapshot(): PageRepeatsState {
    return { recent: [...this.recent], run: this.run, pages: this.pages, empties: this.empties };
  }
}
