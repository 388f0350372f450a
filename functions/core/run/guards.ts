/**
 * The silent-loss guards: what an export notices, page by page, that suggests data is missing even
 * though every request succeeded. Each becomes a `ReportWarning` with a stable code on the report
 * (manifest, log, email, metric). The report keeps status `succeeded` — its files are complete for
 * what the server sent — and the warnings say why that may not be everything.
 *
 * - METRIC_MISSING: a requested metric whose key is absent from every row's `metrics` (a key present
 *   with null in every row is legitimate and stays quiet). Typical cause: the server reads arrays in
 *   another encoding (`api.arrayFormat`) and took only the first metric.
 * - PAGE_FULL_NO_CURSOR: paging ended on a page with a cursor-like value elsewhere (e.g.
 *   `meta.nextCursor`), or on a first page holding `limit` rows with no cursor anywhere. (A full last
 *   page after pages that did carry a cursor is what a report of an exact multiple of `limit` rows
 *   looks like, so it stays quiet.)
 * - ID_FIELDS_MISSING: rows without the fields that identify a row on the route.
 * - ROWS_REPEATED: rows whose identifying fields are among those of the last rows of this export (at
 *   least the last `REPEAT_WINDOW`), or rows of a page identical to one of the last pages
 *   (`./page-repeats`, also across continuations). Pages that
 *   only repeat stop the export after `api.maxRepeatedPages` (API_CURSOR_LOOP), and more than
 *   `api.maxPages` pages stop it too (API_PAGE_LIMIT).
 * - SERVER_PARTIAL: pages that said their results are partial (`ApiPage.serverPartial`: `errors`,
 *   `warnings`, `partial: true` …); with `api.serverPartial: fail`, the first such page fails the
 *   report (API_PARTIAL).
 *
 * State is small and fits the checkpoint, except the identities of the last rows, which are kept per
 * step: after a continuation, a single repeated row of an earlier step goes unnoticed (a whole
 * repeated page does not: its fingerprint is in the checkpoint).
 */
import * as z from 'zod/mini';
import { toJsonText } from '../api/json';
import type { ServerPartial } from '../api/partial';
import type { ApiPage, ApiRow } from '../api/types';
import { ROUTE_SPECS } from '../config/routes';
import type { Config, ReportConfig } from '../config/schema';
import { ExporterError } from '../errors';
import { type ReportWarning, ReportWarningSchema } from '../manifest';
import { RecentHashes } from './hash-set';
import { PageRepeats, PageRepeatsStateSchema } from './page-repeats';

/**
 * Rows whose identities ROWS_REPEATED remembers: at least the last 131,072 (131 pages of 1,000 rows),
 * at most twice that (`RecentHashes`: 4 MiB, the same at 200k rows as at 3M). A window rather than the
 * first rows of the export: what repeats in practice is near (a page served again, rows shifted by
 * paging that is not stable while data changes), and memory must not grow with the rows.
 */
export const REPEAT_WINDOW = 131_072;

export interface GuardOptions {
  readonly route: string;
  /** Requested metric names (empty on the lists). */
  readonly metrics: readonly string[];
  /** Fields every row must carry to be told apart (the route's key fields). */
  readonly keyFields: readonly string[];
  /** Whether the route pages (`limit`), and the `limit` sent. */
  readonly paged: boolean;
  readonly limit: number;
  /** Where the exporter reads the cursor (`api.cursorPath`), for messages. */
  readonly cursorPath: string;
  /** `api.maxRepeatedPages`, `api.maxPages` (./page-repeats). */
  readonly maxRepeatedPages: number;
  readonly maxPages: number;
  /** `api.serverPartial`: warn (SERVER_PARTIAL) or fail the report (API_PARTIAL). */
  readonly serverPartial: 'warn' | 'fail';
}

/** The guards' resumable state (kept in the export checkpoint). */
export const GuardStateSchema = z.object({
  rows: z.int().check(z.nonnegative()),
  seenMetrics: z.array(z.string()),
  lackingIds: z.int().check(z.nonnegative()),
  repeated: z.int().check(z.nonnegative()),
  pageWarning: z.nullable(ReportWarningSchema),
  /** Pages observed, and whether any carried a cursor where the exporter reads it. */
  pages: z.optional(z.int().check(z.nonnegative())),
  sawCursor: z.optional(z.boolean()),
  /** Fingerprints of the last pages and the run of repeated pages (./page-repeats). */
  repeats: z.optional(PageRepeatsStateSchema),
  /** Pages that said they were partial, the fields that said so and the server's first words. */
  partial: z.optional(
    z.object({
      pages: z.int().check(z.nonnegative()),
      markers: z.array(z.string()),
      messages: z.array(z.string()),
    }),
  ),
});
export type GuardState = z.infer<typeof GuardStateSchema>;

/** The guards of one report export, from its config (and the state a checkpoint carried). */
export function lossGuards(config: Config, report: ReportConfig, from?: GuardState): LossGuards {
  const spec = ROUTE_SPECS[report.route];
  return new LossGuards(
    {
      route: report.route,
      metrics: report.metrics ?? [],
      keyFields: spec.keyFields,
      paged: spec.paged,
      limit: config.api.pageSize,
      cursorPath: config.api.cursorPath,
      maxRepeatedPages: config.api.maxRepeatedPages,
      maxPages: config.api.maxPages,
      serverPartial: config.api.serverPartial,
    },
    from,
  );
}

export class LossGuards {
  private rows: number;
  private readonly seenMetrics: Set<string>;
  private lackingIds: number;
  private repeated: number;
  private pageWarning: ReportWarning | null;
  private pages: number;
  private sawCursor: boolean;
  private readonly identities = new RecentHashes(REPEAT_WINDOW);
  private readonly repeats: PageRepeats;
  private readonly partial: { pages: number; markers: string[]; messages: string[] };

  constructor(
    private readonly o: GuardOptions,
    from?: GuardState,
  ) {
    // a checkpoint that came through JSON: copy what we keep
    this.rows = from?.rows ?? 0;
    this.seenMetrics = new Set(from?.seenMetrics ?? []);
    this.lackingIds = from?.lackingIds ?? 0;
    this.repeated = from?.repeated ?? 0;
    this.pageWarning = from?.pageWarning ? { ...from.pageWarning } : null;
    this.pages = from?.pages ?? 0;
    this.sawCursor = from?.sawCursor ?? false;
    this.repeats = new PageRepeats(
      { label: `GET /v2/${o.route}`, maxRepeatedPages: o.maxRepeatedPages, maxPages: o.maxPages },
      from?.repeats,
    );
    this.partial = {
      pages: from?.partial?.pages ?? 0,
      markers: [...(from?.partial?.markers ?? [])],
      messages: [...(from?.partial?.messages ?? [])],
    };
  }

  /**
   * Looks at one page's rows and how it ended, before the page is written; throws when paging must
   * stop (repeated pages, the page cap) or a partial page must fail the report.
   */
  observe(page: ApiPage): void {
    const before = this.repeated;
    let fingerprint = 0;
    for (const row of page.rows) fingerprint = (fingerprint + this.row(row)) % 2 ** 53;
    const repeatedRows = this.repeated - before;
    const rows = page.rows.length;
    if (this.repeats.observe({ rows, repeatedRows, fingerprint: rows === 0 ? null : fingerprint })) {
      // a page identical to one of an earlier step: its rows repeat although this step never saw them
      this.repeated += rows - repeatedRows;
    }
    if (page.serverPartial) this.partialPage(page.serverPartial);
    this.pages += 1;
    if (page.nextCursor === null) this.lastPage(page);
    else this.sawCursor = true;
  }

  private partialPage(said: ServerPartial): void {
    this.partial.pages += 1;
    for (const m of said.markers) if (!this.partial.markers.includes(m)) this.partial.markers.push(m);
    for (const m of said.messages) {
      if (this.partial.messages.length < 3 && !this.partial.messages.includes(m))
        this.partial.messages.push(m);
    }
    if (this.o.serverPartial === 'fail') {
      throw new ExporterError(
        'API_PARTIAL',
        `GET /v2/${this.o.route}: page ${this.pages + 1} said its results are partial (${said.markers.join(', ')})${quoted(said.messages)}; the report fails because api.serverPartial is fail — re-run the window once the server answers completely`,
        { details: { route: this.o.route, page: this.pages + 1, markers: said.markers } },
      );
    }
  }

  /** Counts one row; returns its identity hash (of its JSON on routes without identifying fields). */
  private row(row: ApiRow): number {
    this.rows += 1;
    if (this.seenMetrics.size < this.o.metrics.length) {
      const m = row.metrics;
      if (typeof m === 'object' && m !== null && !Array.isArray(m)) {
        for (const name of this.o.metrics) if (Object.hasOwn(m, name)) this.seenMetrics.add(name);
      }
    }
    if (this.o.keyFields.length === 0) return hash53(toJsonText(row));
    let key = '';
    for (const field of this.o.keyFields) {
      const v = Object.hasOwn(row, field) ? row[field] : undefined;
      if (v === undefined || v === null || v === '') {
        this.lackingIds += 1;
        return hash53(toJsonText(row));
      }
      // toJsonText, not JSON.stringify: an id beyond 2^53 arrives as a bigint (api/json.ts)
      key += `${typeof v === 'string' ? v : toJsonText(v)}\u0000`;
    }
    const h = hash53(key);
    if (!this.identities.add(h)) this.repeated += 1;
    return h;
  }

  private lastPage(page: ApiPage): void {
    const full = this.o.paged && page.rows.length >= this.o.limit && page.rows.length > 0;
    if (page.cursorElsewhere === undefined && (!full || this.sawCursor)) return;
    const where =
      page.cursorElsewhere === undefined
        ? `no cursor was found there or in the other usual places (meta.nextCursor, pagination.next, …) — expected only if the report has exactly ${this.o.limit} rows`
        : `the answer has a cursor-like value at "${page.cursorElsewhere}" instead — if that is the cursor, set api.cursorPath: ${page.cursorElsewhere}`;
    const size = full ? `held ${page.rows.length} rows (= limit ${this.o.limit}) but ` : '';
    this.pageWarning = {
      code: 'PAGE_FULL_NO_CURSOR',
      message: `paging stopped at page ${this.pages}: it ${size}had no cursor at "${this.o.cursorPath}", so later pages (if any) were not fetched; ${where}. Run \`report-exporter check\` to see where the server puts its cursor.`,
    };
  }

  /** The warnings of the export so far (complete once the last page was observed). */
  warnings(): ReportWarning[] {
    const out: ReportWarning[] = [];
    if (this.rows > 0) {
      for (const name of this.o.metrics) {
        if (this.seenMetrics.has(name)) continue;
        out.push({
          code: 'METRIC_MISSING',
          column: name,
          count: this.rows,
          message: `metric "${name}" was requested but its key is absent from all ${this.rows} rows (not null: missing), so its column is empty. The server may read arrays in another encoding and have taken only some metrics — run \`report-exporter check\`, which names the api.arrayFormat the server understands — or the metric does not exist on ${this.o.route}.`,
        });
      }
    }
    if (this.pageWarning) out.push(this.pageWarning);
    if (this.lackingIds > 0) {
      out.push({
        code: 'ID_FIELDS_MISSING',
        count: this.lackingIds,
        message: `${this.lackingIds} of ${this.rows} rows lack the field(s) that identify a row on ${this.o.route} (${this.o.keyFields.join(', ')}), so they cannot be told apart or joined. The server's rows differ from what the exporter expects: run \`report-exporter check\` and look at the fields it lists.`,
      });
    }
    if (this.partial.pages > 0) {
      out.push({
        code: 'SERVER_PARTIAL',
        count: this.partial.pages,
        message: `${this.partial.pages} of ${this.pages} pages said their results are partial (${this.partial.markers.join(', ')})${quoted(this.partial.messages)}, so the files may lack rows or values the server did not deliver. Re-run the window later; set api.serverPartial: fail to fail such a report instead.`,
      });
    }
    if (this.repeated > 0) {
      out.push({
        code: 'ROWS_REPEATED',
        count: this.repeated,
        message: `${this.repeated} of ${this.rows} rows repeat a row already exported (same ${this.o.keyFields.join(', ')}), so totals count them twice. The server may have ignored the cursor and served a page again, or its paging is not stable while data changes; re-run the window, and if it persists report it to the API provider.`,
      });
    }
    return out;
  }

  snapshot(): GuardState {
    return {
      rows: this.rows,
      seenMetrics: [...this.seenMetrics],
      lackingIds: this.lackingIds,
      repeated: this.repeated,
      pageWarning: this.pageWarning,
      pages: this.pages,
      sawCursor: this.sawCursor,
      repeats: this.repeats.snapshot(),
      partial: {
        pages: this.partial.pages,
        markers: [...this.partial.markers],
        messages: [...this.partial.messages],
      },
    };
  }
}

/** `: "a"; "b"` — the server's own words, or nothing. */
const quoted = (messages: readonly string[]) =>
  messages.length === 0 ? '' : `: ${messages.map((m) => JSON.stringify(m)).join('; ')}`;

/** A 53-bit hash (two 32-bit FNV-1a variants): collisions are negligible at a million keys. */
function hash53(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}
