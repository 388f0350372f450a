import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '#simulator/server';
import { get, qs, start, token, WINDOW } from './helpers';

let sim: Simulator;
let jwt: string;
beforeAll(async () => {
  ({ sim, jwt } = await start({ seed: 7, scale: { postsPerDay: 200 }, hostile: true }));
});
afterAll(() => sim.close());

type Metrics = Record<string, number | null>;
interface PostRow {
  postId: string;
  campaignId: string;
  creatorId: string;
  instanceId: string;
  platform: string;
  contentType: string;
  publishedAt: string;
  caption: string;
  creator: { name: string };
  metrics: Metrics;
}
const METRICS = ['likes', 'comments', 'paidAdSpend', 'videoViewTotalTime', 'crosspostedViews'];

/** Null-aware sum: null when no row contributed a value, as the API defines it. */
function sum(rows: { metrics: Metrics }[], name: string): number | null {
  let total: number | null = null;
  for (const r of rows) {
    const v = r.metrics[name];
    if (typeof v === 'number') total = (total ?? 0) + v;
  }
  return total;
}
const cents = (x: number | null) => (x === null ? null : Math.round(x * 100));
const posts = (q: Record<string, unknown> = {}) =>
  sim.truth.rows('posts/performance', { ...WINDOW, metrics: METRICS, ...q }) as PostRow[];

describe('numbers agree across routes', () => {
  it("a campaign's counters equal the sum over its posts in the window", () => {
    const all = posts();
    const campaigns = sim.truth.rows('campaigns/performance', { ...WINDOW, metrics: METRICS }) as {
      campaignId: string;
      metrics: Metrics;
    }[];
    expect(campaigns.length).toBeGreaterThan(5);
    for (const c of campaigns) {
      const mine = all.filter((p) => p.campaignId === c.campaignId);
      for (const m of ['likes', 'comments', 'videoViewTotalTime', 'crosspostedViews']) {
        expect(c.metrics[m], `${c.campaignId} ${m}`).toBe(sum(mine, m));
      }
      expect(cents(c.metrics.paidAdSpend ?? null)).toBe(cents(sum(mine, 'paidAdSpend')));
    }
  });

  it('creators, platforms, the instance summary and daily buckets add up to the posts', async () => {
    const all = posts();
    const creators = sim.truth.rows('creators/performance', { ...WINDOW, metrics: ['likes'] }) as {
      creatorId: string;
      metrics: Metrics;
    }[];
    for (const c of creators)
      expect(c.metrics.likes).toBe(
        sum(
          all.filter((p) => p.creatorId === c.creatorId),
          'likes',
        ),
      );
    const platforms = sim.truth.rows('platforms/performance', { ...WINDOW, metrics: ['likes'] }) as {
      platform: string;
      metrics: Metrics;
    }[];
    for (const p of platforms)
      expect(p.metrics.likes).toBe(
        sum(
          all.filter((x) => x.platform === p.platform),
          'likes',
        ),
      );
    expect(sum(platforms, 'likes')).toBe(sum(all, 'likes'));
    const summary = await get(sim, jwt, `/v2/instances/performance?${qs({ ...WINDOW, metrics: ['likes'] })}`);
    expect((summary.body as { data: { metrics: Metrics } }).data.metrics.likes).toBe(sum(all, 'likes'));
    const buckets = sim.truth.rows('instances/performance-over-time', { ...WINDOW, metrics: ['likes'] }) as {
      startDate: string;
      metrics: Metrics;
    }[];
    for (const b of buckets) {
      expect(b.metrics.likes).toBe(
        sum(
          all.filter((p) => p.publishedAt.startsWith(b.startDate)),
          'likes',
        ),
      );
    }
  });

  it('with dateBasis performance_date, daily buckets, campaigns and the summary still agree', () => {
    const q = { ...WINDOW, metrics: ['likes', 'comments'], dateBasis: 'performance_date' };
    const total = (sim.truth.rows('instances/performance', q)[0] as { metrics: Metrics }).metrics;
    const buckets = sim.truth.rows('instances/performance-over-time', q) as { metrics: Metrics }[];
    const campaigns = sim.truth.rows('campaigns/performance', q) as { metrics: Metrics }[];
    const postRows = sim.truth.rows('posts/performance', q) as PostRow[];
    expect(sum(buckets, 'likes')).toBe(total.likes);
    expect(sum(campaigns, 'likes')).toBe(total.likes);
    expect(sum(postRows, 'likes')).toBe(total.likes);
    // posts published before the window contribute their later days
    expect(postRows.some((p) => p.publishedAt < WINDOW.startDate)).toBe(true);
    const byPostDate = (
      sim.truth.rows('instances/performance', { ...q, dateBasis: 'post_date' })[0] as { metrics: Metrics }
    ).metrics;
    expect(total.likes).not.toBe(byPostDate.likes);
  });

  it('filters narrow every route the same way', () => {
    const ids = sim.truth.boundInstanceIds.slice(0, 1);
    const scoped = posts({ instanceIds: ids });
    expect(scoped.every((p) => p.instanceId === ids[0])).toBe(true);
    const summary = sim.truth.rows('instances/performance', {
      ...WINDOW,
      metrics: ['likes'],
      instanceIds: ids,
    })[0] as {
      instanceIds: string[];
      metrics: Metrics;
    };
    expect(summary.instanceIds).toEqual(ids);
    expect(summary.metrics.likes).toBe(sum(scoped, 'likes'));
    const insta = sim.truth.rows('platforms/performance', {
      ...WINDOW,
      metrics: ['likes'],
      platform: 'instagram',
    });
    const allPlatforms = sim.truth.rows('platforms/performance', { ...WINDOW, metrics: ['likes'] });
    expect(insta).toEqual([allPlatforms[0]]);
    const reels = posts({ contentType: 'instagram_reel' });
    expect(reels.length).toBeGreaterThan(0);
    expect(reels.every((p) => p.contentType === 'instagram_reel')).toBe(true);
    const campaignId = reels[0]?.campaignId as string;
    expect(posts({ campaignIds: [campaignId] }).every((p) => p.campaignId === campaignId)).toBe(true);
  });

  it('computes ratios per row from its sums instead of summing them', () => {
    const q = {
      ...WINDOW,
      metrics: ['engagementRate', 'totalInteractions', 'impressions', 'returnOnInvestment'],
    };
    const campaign = sim.truth.rows('campaigns/performance', q)[0] as {
      campaignId: string;
      metrics: Metrics;
    };
    const mine = sim.truth
      .rows('posts/performance', { ...q, metrics: ['engagementRate', 'totalInteractions', 'impressions'] })
      .filter((p) => (p as PostRow).campaignId === campaign.campaignId) as PostRow[];
    const { totalInteractions, impressions, engagementRate } = campaign.metrics;
    expect(engagementRate).toBe(Number(((totalInteractions as number) / (impressions as number)).toFixed(4)));
    expect(engagementRate).not.toBe(sum(mine, 'engagementRate'));
    expect(engagementRate as number).toBeLessThan(1);
  });
});

describe('values', () => {
  it('has roughly 5–10% nulls on a core counter, and money with at most two decimals', () => {
    const all = posts();
    const likes = all.map((p) => p.metrics.likes);
    const share = likes.filter((v) => v === null).length / likes.length;
    expect(share).toBeGreaterThan(0.03);
    expect(share).toBeLessThan(0.1);
    for (const p of all) {
      const spend = p.metrics.paidAdSpend;
      if (typeof spend === 'number')
        expect(Math.abs(spend * 100 - Math.round(spend * 100))).toBeLessThan(1e-6);
    }
  });

  it('serves platform-specific metrics as null where they do not apply', () => {
    const all = posts();
    expect(all.filter((p) => p.platform === 'tiktok').every((p) => p.metrics.crosspostedViews === null)).toBe(
      true,
    );
    const reels = all.filter((p) => p.contentType === 'instagram_reel');
    expect(reels.filter((p) => typeof p.metrics.crosspostedViews === 'number').length).toBeGreaterThan(
      reels.length * 0.8,
    );
  });

  it('mixes hostile text into captions and creator names (with hostile: true)', () => {
    const text = posts().flatMap((p) => [p.caption, p.creator.name]);
    const creators = (
      sim.truth.rows('creators/performance', { ...WINDOW, metrics: ['likes'] }) as { name: string }[]
    ).map((c) => c.name);
    const all = [...text, ...creators];
    const has = (re: RegExp) => all.some((s) => re.test(s));
    expect(has(/,/)).toBe(true);
    expect(has(/"/)).toBe(true);
    expect(has(/\r\n/)).toBe(true);
    expect(has(/[^\r]\n/)).toBe(true);
    expect(has(/\t/)).toBe(true);
    expect(has(/\u200d/)).toBe(true); // ZWJ emoji sequence
    expect(has(/[\u{1F1E6}-\u{1F1FF}]{2}/u)).toBe(true); // flag
    for (const lead of ['=', '+', '-', '@'])
      expect(
        all.some((s) => s.startsWith(lead)),
        lead,
      ).toBe(true);
    expect(has(/<script>alert\(1\)<\/script>/)).toBe(true);
    expect(has(/&amp;/)).toBe(true);
    expect(has(/[\u0590-\u06ff]/)).toBe(true); // Hebrew / Arabic
  });
});

describe('determinism', () => {
  it('serves byte-identical answers for the same seed and different ones for another seed', async () => {
    const same = await startSimulator({ seed: 7, scale: { postsPerDay: 200 }, hostile: true });
    const other = await startSimulator({ seed: 8, scale: { postsPerDay: 200 }, hostile: true });
    try {
      const paths = [
        `/v2/posts/performance?${qs({ ...WINDOW, metrics: METRICS, limit: 300 })}`,
        `/v2/campaigns/performance?${qs({ ...WINDOW, metrics: METRICS })}`,
        '/v2/campaigns?limit=50',
      ];
      for (const path of paths) {
        const a = await get(sim, jwt, path);
        const b = await get(same, jwt, path);
        expect(b.status).toBe(200);
        expect(b.text).toBe(a.text);
        const c = await get(other, await token(other), path);
        expect(c.text).not.toBe(a.text);
      }
    } finally {
      await same.close();
      await other.close();
    }
  });
});
