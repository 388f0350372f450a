import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cell } from '#core/export/flatten';
import { isAdditiveMetric, Totals, totalValue } from '#core/export/totals';

describe('isAdditiveMetric', () => {
  it.each([
    'likes',
    'comments',
    'shares',
    'clicks',
    'paidImpressions',
    'paidAdSpend',
    'trackingLinksClicks',
    'affiliateLinksRevenue',
    'videoViewTotalTime',
    'navigationTapsForward',
  ])('sums the counter %s', (name) => expect(isAdditiveMetric(name)).toBe(true));

  it.each([
    'avgWatchTime',
    'engagementRate',
    'clickThroughRate',
    'ctr',
    'paidCpm',
    'costPerClick',
    'reach',
    'paidReach',
    'frequency',
    'roi',
    'returnOnInvestment',
    'roas',
    'shareOfVoice',
    'likeRatio',
    'uniqueViewers',
    'engagement_rate',
    'averageOrderValue',
  ])('never sums %s', (name) => expect(isAdditiveMetric(name)).toBe(false));
});

describe('Totals', () => {
  it('sums integers exactly through intermediate values beyond 2^53 and writes a sum a number cannot hold as decimal text', () => {
    const t = new Totals();
    // a float running sum would pass through 2^53 + 1 (not representable) and end at …990
    t.addColumn('likes', [Number.MAX_SAFE_INTEGER, 2, -2]);
    t.addColumn('views', [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);
    expect(t.result()).toEqual({ likes: Number.MAX_SAFE_INTEGER, views: '18014398509481982' });
  });

  it('adds integers beyond 2^53 (bigint cells) with every digit', () => {
    // the case: long values were left out of the total (599,399,790 instead of …064,790)
    const t = new Totals();
    t.addColumn('views', [270215977642665000n, 599399790]);
    t.addColumn('likes', [1n, 2]);
    expect(t.result()).toEqual({ views: '270215978242064790', likes: 3 });
  });

  it('gives no total for a metric null or non-numeric in every row (SUM of nulls is NULL, not 0)', () => {
    const t = new Totals();
    t.addColumn('likes', [null, null]);
    t.addColumn('shares', [null, 0]);
    const resumed = new Totals(JSON.parse(JSON.stringify(t.snapshot())));
    resumed.addColumn('likes', [null]);
    expect(resumed.result()).toEqual({ shares: 0 });
  });

  it('keeps a decimal sum of more than 15 significant digits exact as text, and tiny values exactly', () => {
    const t = new Totals();
    t.addColumn('paidAdSpend', [0.1, 123456789012345.6]);
    t.addColumn('revenueValue', [5e-324, 1e-7]);
    expect(t.result()).toEqual({
      paidAdSpend: '123456789012345.7',
      revenueValue: `0.0000001${'0'.repeat(316)}5`,
    });
  });

  // shrunk by test/e2e/export-properties (seed 20261125): -39e-324 has 2 significant digits, but a
  // double that small has fewer, so the number -4e-323 was not the sum
  it('writes a sum below the normal doubles as text: 5e-324 + -4.4e-323 = -39e-324 exactly', () => {
    const t = new Totals();
    t.addColumn('paidAdSpend', [5e-324]);
    t.addColumn('paidAdSpend', [-4.4e-323, 0]);
    expect(t.result()).toEqual({ paidAdSpend: `-0.${'0'.repeat(322)}39` });
  });

  it('sums decimals exactly (0.1 + 0.2 = 0.3) and skips nulls and non-additive metrics', () => {
    const t = new Totals();
    t.addColumn('paidAdSpend', [0.1, 0.2, null, 1e-7]);
    t.addColumn('engagementRate', [0.5, 0.5]);
    expect(t.result()).toEqual({ paidAdSpend: 0.3000001 });
  });

  it('resumes from a snapshot with the same result', () => {
    const a = new Totals();
    a.addColumn('likes', [1, 2]);
    const b = new Totals(JSON.parse(JSON.stringify(a.snapshot())));
    b.addColumn('likes', [3]);
    expect(b.result()).toEqual({ likes: 6 });
  });
});

/** The sum each value's shortest decimal text spells, added as BigInts: what the totals must equal. */
function referenceSum(cells: readonly Cell[]): { mantissa: string; scale: number } | undefined {
  const terms: { m: bigint; scale: number }[] = [];
  for (const v of cells) {
    if (typeof v === 'bigint') terms.push({ m: v, scale: 0 });
    else if (typeof v === 'number' && Number.isFinite(v)) {
      const [mant = '', exp = '0'] = String(v).split('e');
      const negative = mant.startsWith('-');
      const [int = '', frac = ''] = (negative ? mant.slice(1) : mant).split('.');
      const scale = frac.length - Number(exp);
      const digits = BigInt(int + frac) * 10n ** BigInt(Math.max(0, -scale));
      terms.push({ m: negative ? -digits : digits, scale: Math.max(0, scale) });
    }
  }
  if (terms.length === 0) return undefined;
  const scale = Math.max(...terms.map((t) => t.scale));
  const m = terms.reduce((sum, t) => sum + t.m * 10n ** BigInt(scale - t.scale), 0n);
  return { mantissa: m.toString(), scale };
}

describe('Totals (property)', () => {
  const cell = fc.oneof(
    fc.constant(null),
    fc.integer({ min: -1_000_000, max: 1_000_000 }),
    // money-like decimals (the fast path) and their neighbours
    fc
      .tuple(fc.integer({ min: -(10 ** 12), max: 10 ** 12 }), fc.integer({ min: 0, max: 8 }))
      .map(([n, s]) => n / 10 ** s),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, -0, 0.1, 0.2, 1e-7, 5e-324, 123456789012345.6, 1e21, 0.1 + 0.2),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  );

  it('every additive column sums to exactly what its values spell, in any slicing', () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { maxLength: 40 }), { maxLength: 5 }), (slices) => {
        const t = new Totals();
        for (const slice of slices) t.addColumn('likes', slice);
        const want = referenceSum(slices.flat());
        const snapshot = t.snapshot().likes;
        if (want === undefined) expect(snapshot).toBeUndefined();
        else {
          expect(snapshot).toEqual(want);
          expect(t.result().likes).toEqual(totalValue(BigInt(want.mantissa), want.scale));
        }
      }),
      { numRuns: 500 },
    );
  });
});
