import { describe, expect, it } from 'vitest';
import { isAdditiveMetric, Totals } from '#core/export/totals';

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
