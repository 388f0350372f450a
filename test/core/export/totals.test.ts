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
  it('sums integers exactly through intermediate values beyond 2^53 and leaves out sums it cannot hold exactly', () => {
    const t = new Totals();
    // a float running sum would pass through 2^53 + 1 (not representable) and end at …990
    t.addColumn('likes', [Number.MAX_SAFE_INTEGER, 2, -2]);
    t.addColumn('views', [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);
    expect(t.result()).toEqual({ likes: Number.MAX_SAFE_INTEGER });
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
