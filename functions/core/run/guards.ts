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
 * - ROWS_REPEATED: rows whose identifying fields were already seen in this export.
 *
 * State is small and fits the checkpoint, except the set of identities seen, which is kept per step
 * (and capped): after a continuation, a repeat of a row from an earlier step goes unnoticed.
 */
import * as z from 'zod/mini';
import { toJsonText } from '../api/json';
import type { ApiPage, ApiRow } from '../api/types';
import { ROUTE_SPECS } from '../config/routes';
import type { Config, ReportConfig } from '../config/schema';
import { type ReportWarning, ReportWarningSchema } from '../manifest';
import { HashSet53 } from './hash-set';

/** Identities remembered for ROWS_REPEATED (8–16 MB of hashes at the cap, `HashSet53`). */
const MAX_TRACKED = 1_000_000;

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
  private readonly identities = new HashSet53();

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
  }

  /** Looks at one page's rows and how it ended. */
  observe(page: ApiPage): void {
    for (const row of page.rows) this.row(row);
    this.pages += 1;
    if (page.nextCursor === null) this.lastPage(page);
    else this.sawCursor = true;
  }

  private row(row: ApiRow): void {
    this.rows += 1;
    if (this.seenMetrics.size < this.o.metrics.length) {
      const m = row.metrics;
      if (typeof m === 'object' && m !== null && !Array.isArray(m)) {
        for (const name of this.o.metrics) if (Object.hasOwn(m, name)) this.seenMetrics.add(name);
      }
    }
    if (this.o.keyFields.length === 0) return;
    let key = '';
    for (const field of this.o.keyFields) {
      const v = Object.hasOwn(row, field) ? row[field] : undefined;
      if (v === undefined || v === null || v === '') {
        this.lackingIds += 1;
        return;
      }
      // toJsonText, not JSON.stringify: an id beyond 2^53 arrives as a bigint (api/json.ts)
      key += `${typeof v === 'string' ? v : toJsonText(v)}\u0000`;
    }
    const h = hash53(key);
    if (this.identities.size < MAX_TRACKED) {
      if (!this.identities.add(h)) this.repeated += 1;
    } else if (this.identities.has(h)) this.repeated += 1;
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
    };
  }
}

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
