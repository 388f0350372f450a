/**
 * The stop rule of paging as properties (functions/core/run/page-repeats.ts through the guards): a
 * server that serves only rows from a finite pool, with a fresh cursor on every page, is stopped
 * within a bound — in one process, and across continuations (one page per Export step, only the
 * checkpoint carried) when it cycles through a fixed list of pages.
 */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { ApiPage } from '#core/api/types';
import { isExporterError } from '#core/errors';
import { type GuardOptions, type GuardState, LossGuards } from '#core/run/guards';

const RUNS = Number(process.env.PAGING_RUNS ?? 100);
const options = (maxRepeatedPages: number): GuardOptions => ({
  route: 'posts/performance',
  metrics: [],
  keyFields: ['postId'],
  paged: true,
  limit: 50,
  cursorPath: 'nextCursor',
  maxRepeatedPages,
  maxPages: 100_000,
  serverPartial: 'warn',
});
const pageOf = (ids: readonly number[], i: number): ApiPage => ({
  rows: ids.map((id) => ({ postId: `p${id}` })),
  nextCursor: `fresh-${i}`,
  index: i,
});

/** Pages taken until the guards stop paging (API_CURSOR_LOOP), or Infinity. */
function pagesUntilStopped(next: (i: number) => readonly number[], step: (page: ApiPage) => void): number {
  for (let i = 0; i < 10_000; i++) {
    try {
      step(pageOf(next(i), i));
    } catch (err: unknown) {
      expect(isExporterError(err, 'API_CURSOR_LOOP')).toBe(true);
      return i + 1;
    }
  }
  return Number.POSITIVE_INFINITY;
}

/** Pages: non-empty sets of ids from a pool of `pool` rows. */
const script = (pool: number) =>
  fc.array(fc.uniqueArray(fc.integer({ min: 0, max: pool - 1 }), { minLength: 1, maxLength: pool }), {
    minLength: 1,
    maxLength: 40,
  });

describe('paging always ends', () => {
  test.prop(
    [
      fc.integer({ min: 1, max: 20 }).chain((pool) => fc.tuple(fc.constant(pool), script(pool))),
      fc.integer({ min: 1, max: 5 }),
    ],
    { numRuns: RUNS, seed: 23 },
  )(
    'in one process: a server serving rows of a finite pool forever is stopped within (pool + 1) × maxRepeatedPages pages',
    ([pool, pages], max) => {
      const guards = new LossGuards(options(max));
      const taken = pagesUntilStopped(
        (i) => pages[i % pages.length] ?? [],
        (p) => guards.observe(p),
      );
      expect(taken).toBeLessThanOrEqual((pool + 1) * max);
    },
  );

  test.prop([fc.integer({ min: 1, max: 20 }).chain(script), fc.integer({ min: 1, max: 5 })], {
    numRuns: RUNS,
    seed: 23,
  })(
    'across continuations: a server cycling through up to 40 pages is stopped within cycle + maxRepeatedPages pages',
    (pages, max) => {
      let state: GuardState | undefined;
      const taken = pagesUntilStopped(
        (i) => pages[i % pages.length] ?? [],
        (p) => {
          // a new step per page: only the checkpoint (through JSON) carries on
          const guards = new LossGuards(options(max), state && JSON.parse(JSON.stringify(state)));
          try {
            guards.observe(p);
          } finally {
            state = guards.snapshot();
          }
        },
      );
      expect(taken).toBeLessThanOrEqual(pages.length + max);
    },
  );
});
