import { describe, expect, it } from 'vitest';
import type { ApiPage, ApiRow } from '#core/api/types';
import { type GuardOptions, LossGuards, REPEAT_WINDOW } from '#core/run/guards';

const OPTIONS: GuardOptions = {
  route: 'campaigns/performance',
  metrics: ['likes', 'comments'],
  keyFields: ['campaignId'],
  paged: true,
  limit: 3,
  cursorPath: 'nextCursor',
  maxRepeatedPages: 3,
  maxPages: 100_000,
  serverPartial: 'warn',
};
const row = (id: string | undefined, metrics: Record<string, number | null>): ApiRow =>
  id === undefined ? { metrics } : { campaignId: id, metrics };
const page = (rows: ApiRow[], nextCursor: string | null, index = 0, cursorElsewhere?: string): ApiPage =>
  cursorElsewhere === undefined ? { rows, nextCursor, index } : { rows, nextCursor, index, cursorElsewhere };
const codes = (g: LossGuards) => g.warnings().map((w) => w.code);

describe('silent-loss guards', () => {
  it('stay quiet on complete pages, and on a metric that is null in every row with its key present', () => {
    const g = new LossGuards(OPTIONS);
    g.observe(page([row('a', { likes: 1, comments: null }), row('b', { likes: 2, comments: null })], null));
    expect(g.warnings()).toEqual([]);
  });

  it('METRIC_MISSING: a requested metric whose key is absent from every row', () => {
    const g = new LossGuards(OPTIONS);
    g.observe(page([row('a', { likes: 1 }), row('b', { likes: 2 })], null));
    expect(g.warnings()).toEqual([
      {
        code: 'METRIC_MISSING',
        column: 'comments',
        count: 2,
        message:
          'metric "comments" was requested but its key is absent from all 2 rows (not null: missing), so its column is empty. The server may read arrays in another encoding and have taken only some metrics — run `report-exporter check`, which names the api.arrayFormat the server understands — or the metric does not exist on campaigns/performance.',
      },
    ]);
  });

  it('says nothing about metrics when there are no rows at all', () => {
    const g = new LossGuards(OPTIONS);
    g.observe(page([], null));
    expect(g.warnings()).toEqual([]);
  });

  it('PAGE_FULL_NO_CURSOR: a full last page with no cursor, naming where a cursor was found instead', () => {
    const g = new LossGuards(OPTIONS);
    const rows = ['a', 'b', 'c'].map((id) => row(id, { likes: 1, comments: 1 }));
    g.observe(page(rows, null, 0, 'meta.nextCursor'));
    const [w] = g.warnings();
    expect(w?.code).toBe('PAGE_FULL_NO_CURSOR');
    expect(w?.message).toBe(
      'paging stopped at page 1: it held 3 rows (= limit 3) but had no cursor at "nextCursor", so later pages (if any) were not fetched; the answer has a cursor-like value at "meta.nextCursor" instead — if that is the cursor, set api.cursorPath: meta.nextCursor. Run `report-exporter check` to see where the server puts its cursor.',
    );
  });

  it('PAGE_FULL_NO_CURSOR also for a full page with no cursor anywhere, but not for a short last page', () => {
    const full = new LossGuards(OPTIONS);
    full.observe(
      page(
        ['a', 'b', 'c'].map((id) => row(id, { likes: 1, comments: 1 })),
        null,
      ),
    );
    expect(full.warnings()[0]?.message).toContain(
      'no cursor was found there or in the other usual places (meta.nextCursor, pagination.next, …) — expected only if the report has exactly 3 rows',
    );
    const short = new LossGuards(OPTIONS);
    short.observe(
      page(
        ['a', 'b'].map((id) => row(id, { likes: 1, comments: 1 })),
        null,
      ),
    );
    expect(short.warnings()).toEqual([]);
  });

  it('stays quiet on a full last page after pages that carried a cursor (an exact multiple of limit)', () => {
    const g = new LossGuards(OPTIONS);
    g.observe(
      page(
        ['a', 'b', 'c'].map((id) => row(id, { likes: 1, comments: 1 })),
        'c1',
        0,
      ),
    );
    g.observe(
      page(
        ['d', 'e', 'f'].map((id) => row(id, { likes: 1, comments: 1 })),
        null,
        1,
      ),
    );
    expect(g.warnings()).toEqual([]);
  });

  it('ID_FIELDS_MISSING counts rows without the route’s identifying fields', () => {
    const g = new LossGuards(OPTIONS);
    g.observe(page([row(undefined, { likes: 1, comments: 1 }), row('b', { likes: 1, comments: 1 })], null));
    expect(g.warnings()).toEqual([
      expect.objectContaining({
        code: 'ID_FIELDS_MISSING',
        count: 1,
        message: expect.stringContaining(
          '1 of 2 rows lack the field(s) that identify a row on campaigns/performance (campaignId)',
        ),
      }),
    ]);
  });

  it('ROWS_REPEATED counts rows seen again on a later page', () => {
    const g = new LossGuards(OPTIONS);
    const first = ['a', 'b', 'c'].map((id) => row(id, { likes: 1, comments: 1 }));
    g.observe(page(first, 'c1', 0));
    g.observe(page(first.slice(0, 2), null, 1));
    expect(g.warnings()).toEqual([expect.objectContaining({ code: 'ROWS_REPEATED', count: 2 })]);
  });

  it('ROWS_REPEATED counts rows repeated within its window (the last 131,072 rows at least), exactly, over 1.1M rows', () => {
    expect(REPEAT_WINDOW).toBe(131_072);
    const g = new LossGuards({ ...OPTIONS, limit: 1_000, metrics: [] });
    const ids = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => ({ campaignId: `c${from + i}` }));
    for (let p = 0; p < 1_100; p += 1) {
      const rows: ApiRow[] = ids(p * 1_000, (p + 1) * 1_000);
      // page 600 repeats a row of page 599 and one of page 470 (130,000 rows back); page 1,050 one of
      // page 700 (over 2 × the window back: not remembered)
      if (p === 600) rows.push({ campaignId: 'c599999' }, { campaignId: 'c470500' });
      if (p === 1_050) rows.push({ campaignId: 'c700001' });
      g.observe(page(rows, `c${p}`, p));
    }
    expect(g.warnings()).toEqual([expect.objectContaining({ code: 'ROWS_REPEATED', count: 2 })]);
  });

  it('carries its counts through a checkpoint (JSON) and resumes', () => {
    const g = new LossGuards(OPTIONS);
    g.observe(page([row('a', { likes: 1 }), row(undefined, { likes: 1 })], 'c1', 0));
    const resumed = new LossGuards(OPTIONS, JSON.parse(JSON.stringify(g.snapshot())));
    resumed.observe(page([row('c', { likes: 1 })], null, 1));
    expect(codes(resumed)).toEqual(['METRIC_MISSING', 'ID_FIELDS_MISSING']);
    expect(resumed.warnings()[0]?.count).toBe(3);
  });

  it('stops after maxRepeatedPages pages in a row that only repeat exported rows, before the last is written', () => {
    const g = new LossGuards(OPTIONS);
    const same = ['a', 'b'].map((id) => row(id, { likes: 1, comments: 1 }));
    g.observe(page(same, 'c0', 0));
    g.observe(page(same, 'c1', 1));
    g.observe(page(same, 'c2', 2));
    expect(() => g.observe(page(same, 'c3', 3))).toThrow(
      expect.objectContaining({
        code: 'API_CURSOR_LOOP',
        message:
          'GET /v2/campaigns/performance: 3 pages in a row held only rows already exported (the server seems to ignore the cursor and serve the same page again with a new cursor); stopped at page 4 so the files do not grow without end. Report it to the API provider; api.maxRepeatedPages (now 3) sets how many such pages are tolerated',
      }),
    );
  });

  it('lets a page that repeats some rows, then new pages, go on (a repeat run is reset)', () => {
    const g = new LossGuards(OPTIONS);
    for (let i = 0; i < 20; i++) {
      const rows = [row(`n${i}`, { likes: 1, comments: 1 }), row('shared', { likes: 1, comments: 1 })];
      g.observe(page(rows, `c${i}`, i));
    }
    expect(g.warnings()).toEqual([expect.objectContaining({ code: 'ROWS_REPEATED', count: 19 })]);
  });

  it('catches a server looping across continuations: the repeated page is known from the checkpoint', () => {
    const same = ['a', 'b'].map((id) => row(id, { likes: 1, comments: 1 }));
    let state = new LossGuards(OPTIONS).snapshot();
    let thrown: unknown = null;
    // one page per step: each step starts with no identities, only what the checkpoint carries
    for (let step = 0; step < 5 && thrown === null; step++) {
      const g = new LossGuards(OPTIONS, JSON.parse(JSON.stringify(state)));
      try {
        g.observe(page(same, `c${step}`, 0));
      } catch (err: unknown) {
        thrown = err;
      }
      state = g.snapshot();
    }
    expect(thrown).toEqual(expect.objectContaining({ code: 'API_CURSOR_LOOP' }));
    expect(state.repeats?.run).toBe(3);
    expect(JSON.stringify(state).length).toBeLessThan(2_000);
  });

  it('catches a cycle of two identical pages with rows of no identity (a keyless route)', () => {
    const g = new LossGuards({ ...OPTIONS, keyFields: [] });
    const p1 = [row(undefined, { likes: 1, comments: 1 })];
    const p2 = [row(undefined, { likes: 2, comments: 2 })];
    g.observe(page(p1, 'a', 0));
    g.observe(page(p2, 'b', 1));
    g.observe(page(p1, 'c', 2));
    g.observe(page(p2, 'd', 3));
    expect(() => g.observe(page(p1, 'e', 4))).toThrow(expect.objectContaining({ code: 'API_CURSOR_LOOP' }));
  });

  it('fails loudly past maxPages pages', () => {
    const g = new LossGuards({ ...OPTIONS, maxPages: 5 });
    for (let i = 0; i < 5; i++) g.observe(page([row(`r${i}`, { likes: 1, comments: 1 })], `c${i}`, i));
    expect(() => g.observe(page([row('r5', { likes: 1, comments: 1 })], 'c5', 5))).toThrow(
      expect.objectContaining({
        code: 'API_PAGE_LIMIT',
        message: expect.stringContaining('the report passed 5 pages (api.maxPages) and was stopped'),
      }),
    );
  });

  it("SERVER_PARTIAL: pages that said their results are partial, with the server's words", () => {
    const g = new LossGuards(OPTIONS);
    const partial = { markers: ['errors'], messages: ['shard 3 of 4 timed out; results are partial'] };
    g.observe({ ...page([row('a', { likes: 1, comments: 1 })], 'c1', 0), serverPartial: partial });
    g.observe({
      ...page([row('b', { likes: 1, comments: 1 })], null, 1),
      serverPartial: { markers: ['partial'], messages: [] },
    });
    expect(g.warnings()).toEqual([
      {
        code: 'SERVER_PARTIAL',
        count: 2,
        message:
          '2 of 2 pages said their results are partial (errors, partial): "shard 3 of 4 timed out; results are partial", so the files may lack rows or values the server did not deliver. Re-run the window later; set api.serverPartial: fail to fail such a report instead.',
      },
    ]);
  });

  it('fails the report on the first partial page with serverPartial: fail', () => {
    const g = new LossGuards({ ...OPTIONS, serverPartial: 'fail' });
    const said = { markers: ['partial'], messages: [] };
    expect(() =>
      g.observe({ ...page([row('a', { likes: 1, comments: 1 })], null, 0), serverPartial: said }),
    ).toThrow(
      expect.objectContaining({
        code: 'API_PARTIAL',
        message:
          'GET /v2/campaigns/performance: page 1 said its results are partial (partial); the report fails because api.serverPartial is fail — re-run the window once the server answers completely',
      }),
    );
  });

  it('stops a run of empty pages with fresh cursors across continuations (one page per step)', () => {
    let state = new LossGuards(OPTIONS).snapshot();
    let failure: unknown = null;
    for (let step = 0; step < 1_001 && failure === null; step++) {
      const g = new LossGuards(OPTIONS, JSON.parse(JSON.stringify(state)));
      try {
        g.observe(page([], `c${step}`, 0));
      } catch (err: unknown) {
        failure = err;
      }
      state = g.snapshot();
    }
    expect(failure).toEqual(
      expect.objectContaining({
        code: 'API_CURSOR_LOOP',
        message:
          'GET /v2/campaigns/performance: 1000 empty pages in a row, each with a new cursor; stopped at page 1000 to avoid paging forever',
      }),
    );
  });
});
