/**
 * Per-post metric values and how rows are aggregated from them. Additive quantities ("slots") are
 * generated per post and summed; ratios (engagementRate, avgWatchTime, reach, frequency,
 * returnOnInvestment) are computed from a row's sums, never summed. NaN in a slot means null
 * ("not available") and is skipped in sums; a row whose contributions are all null serves null.
 */
import { CONTENT_TYPE_LIST, METRICS } from './catalog';
import { hash32, unit } from './prng';
import type { Post } from './world';

const COUNTS = [...METRICS.values()].filter((d) => d.kind !== 'ratio').map((d) => d.name);
/** Slot names: every additive metric, plus hidden helpers the ratios need. */
export const SLOTS = [...COUNTS, '_videoViews', '_reachBase', '_reachPosts'] as const;
const SLOT = new Map<string, number>(SLOTS.map((n, i) => [n, i]));
const at = (name: string): number => SLOT.get(name) as number;
/** Per content type, whether each additive metric exists there (1) or is always null (0). */
const APPLIES = new Map<string, Uint8Array>(
  CONTENT_TYPE_LIST.map((t) => [t, Uint8Array.from(COUNTS, (n) => (METRICS.get(n)?.on.includes(t) ? 1 : 0))]),
);

// slot indexes resolved once: postSlots runs for every post served, so it avoids lookups by name
const I = {
  views: at('views'),
  impressions: at('impressions'),
  likes: at('likes'),
  comments: at('comments'),
  shares: at('shares'),
  saves: at('saves'),
  clicks: at('clicks'),
  totalInteractions: at('totalInteractions'),
  crosspostedViews: at('crosspostedViews'),
  crosspostedFacebookOnlyViews: at('crosspostedFacebookOnlyViews'),
  videoViewTotalTime: at('videoViewTotalTime'),
  videoViews: at('_videoViews'),
  navigationTapForward: at('navigationTapForward'),
  navigationTapBack: at('navigationTapBack'),
  navigationTapExit: at('navigationTapExit'),
  paidImpressions: at('paidImpressions'),
  paidEngagements: at('paidEngagements'),
  paidClicks: at('paidClicks'),
  paidAdSpend: at('paidAdSpend'),
  cost: at('cost'),
  trackingLinksClicks: at('trackingLinksClicks'),
  trackingLinksRevenue: at('trackingLinksRevenue'),
  affiliateLinksClicks: at('affiliateLinksClicks'),
  affiliateLinksRevenue: at('affiliateLinksRevenue'),
  revenue: at('revenue'),
  reachBase: at('_reachBase'),
  reachPosts: at('_reachPosts'),
};

/** Share of a post's lifetime metrics that lands on day 0..6 after publication (performance_date). */
const CUM = [0.4, 0.6, 0.72, 0.82, 0.9, 0.96, 1];
export const SPREAD_DAYS = CUM.length;

/** Lifetime values of one post (money in cents), NaN where null. */
export function postSlots(seed: number, p: Post): Float64Array {
  const v = new Float64Array(SLOTS.length);
  const { day, index } = p;
  const views = 50 + Math.floor(unit(seed, day, index, 100) ** 3 * 200_000);
  const impressions = Math.floor(views * (1.1 + unit(seed, day, index, 101)));
  const likes = Math.floor(views * (0.01 + 0.1 * unit(seed, day, index, 102)));
  const comments = Math.floor(likes * 0.08 * unit(seed, day, index, 103));
  const shares = Math.floor(likes * 0.2 * unit(seed, day, index, 104));
  const saves = Math.floor(likes * 0.3 * unit(seed, day, index, 105));
  const clicks = Math.floor(views * 0.03 * unit(seed, day, index, 106));
  v[I.views] = views;
  v[I.impressions] = impressions;
  v[I.likes] = likes;
  v[I.comments] = comments;
  v[I.shares] = shares;
  v[I.saves] = saves;
  v[I.clicks] = clicks;
  v[I.totalInteractions] = likes + comments + shares + saves;
  const crossposted = Math.floor(views * 0.3 * unit(seed, day, index, 107));
  v[I.crosspostedViews] = crossposted;
  v[I.crosspostedFacebookOnlyViews] = Math.floor(crossposted * 0.5 * unit(seed, day, index, 108));
  v[I.videoViewTotalTime] = Math.floor(views * (2 + 25 * unit(seed, day, index, 109)));
  v[I.videoViews] = views;
  v[I.navigationTapForward] = Math.floor(impressions * 0.5 * unit(seed, day, index, 110));
  v[I.navigationTapBack] = Math.floor(impressions * 0.1 * unit(seed, day, index, 111));
  v[I.navigationTapExit] = Math.floor(impressions * 0.2 * unit(seed, day, index, 112));
  const paidImpressions = p.paid ? Math.floor(impressions * (0.5 + 2.5 * unit(seed, day, index, 113))) : 0;
  v[I.paidImpressions] = paidImpressions;
  v[I.paidEngagements] = Math.floor(paidImpressions * 0.05 * unit(seed, day, index, 114));
  v[I.paidClicks] = Math.floor(paidImpressions * 0.02 * unit(seed, day, index, 115));
  const adSpend = Math.floor(paidImpressions * (0.2 + 1.3 * unit(seed, day, index, 116)));
  v[I.paidAdSpend] = adSpend;
  v[I.cost] = adSpend + 5_000 + Math.floor(45_000 * unit(seed, day, index, 117));
  const tClicks = Math.floor(clicks * 0.5 * unit(seed, day, index, 118));
  const aClicks = Math.floor(clicks * 0.3 * unit(seed, day, index, 119));
  const tRev = Math.floor(tClicks * 300 * unit(seed, day, index, 120));
  const aRev = Math.floor(aClicks * 500 * unit(seed, day, index, 121));
  v[I.trackingLinksClicks] = tClicks;
  v[I.trackingLinksRevenue] = tRev;
  v[I.affiliateLinksClicks] = aClicks;
  v[I.affiliateLinksRevenue] = aRev;
  v[I.revenue] = tRev + aRev;
  v[I.reachBase] = Math.floor(impressions * (0.5 + 0.4 * unit(seed, day, index, 122)));
  v[I.reachPosts] = 1;
  const applies = APPLIES.get(p.contentType) as Uint8Array;
  // ~6% of values are missing (4 hash bits all zero), and platform-specific ones are missing where
  // they do not apply; one 32-bit hash decides eight slots
  let bits = 0;
  for (let k = 0; k < COUNTS.length; k++) {
    if (k % 8 === 0) bits = hash32(seed, day, index, 1000 + k);
    if (applies[k] === 0 || ((bits >>> ((k % 8) * 4)) & 15) === 0) v[k] = Number.NaN;
  }
  if (applies[I.videoViewTotalTime] === 0) v[I.videoViews] = Number.NaN;
  return v;
}

/** The part of `slots` that falls on days [from, to] (performance_date basis); integers stay integers. */
export function portion(slots: Float64Array, published: number, from: number, to: number): Float64Array {
  const lo = Math.max(0, from - published);
  const hi = Math.min(SPREAD_DAYS - 1, to - published);
  const out = new Float64Array(slots.length);
  const before = lo === 0 ? 0 : (CUM[lo - 1] as number);
  const upto = CUM[hi] as number;
  for (let k = 0; k < slots.length; k++) {
    const x = slots[k] as number;
    out[k] = SLOTS[k] === '_reachPosts' ? x : Math.floor(x * upto) - Math.floor(x * before);
  }
  return out;
}

/**
 * Late-arriving metrics: every additive value of a post scaled by `factor` (≥ 1), rounded down, so
 * counters only grow and integers stay integers. Ratios follow, being computed from the sums.
 */
export function grown(slots: Float64Array, factor: number): Float64Array {
  if (factor === 1) return slots;
  const out = new Float64Array(slots.length);
  for (let k = 0; k < slots.length; k++) {
    const x = slots[k] as number;
    out[k] = SLOTS[k] === '_reachPosts' ? x : Math.floor(x * factor);
  }
  return out;
}

/** Running sums of slots for one row; NaN until a non-null value arrives. */
export class Acc {
  constructor(readonly sum: Float64Array = new Float64Array(SLOTS.length).fill(Number.NaN)) {}
  /** A row of one post: wraps its slots without copying. */
  static of(slots: Float64Array): Acc {
    return new Acc(slots);
  }
  add(slots: Float64Array): void {
    const sum = this.sum;
    for (let k = 0; k < slots.length; k++) {
      const x = slots[k] as number;
      if (!Number.isNaN(x)) {
        const cur = sum[k] as number;
        sum[k] = Number.isNaN(cur) ? x : cur + x;
      }
    }
  }
  get(name: string): number | null {
    const x = this.sum[at(name)] as number;
    return Number.isNaN(x) ? null : x;
  }
}

const round = (x: number, places: number) => Number(x.toFixed(places));
const ratio = (a: number | null, b: number | null, places: number) =>
  a === null || b === null || b === 0 ? null : round(a / b, places);

function reach(acc: Acc): number | null {
  const base = acc.get('_reachBase');
  const n = acc.get('_reachPosts');
  // unique reach grows slower than the sum over posts: audiences overlap
  return base === null || n === null ? null : Math.round(base / (1 + 0.1 * Math.log2(n)));
}

/** The value served for `name` on a row with these sums. */
export function metricValue(acc: Acc, name: string): number | null {
  const def = METRICS.get(name);
  if (def === undefined) return null;
  if (def.kind === 'count') return acc.get(name);
  if (def.kind === 'money') {
    const cents = acc.get(name);
    return cents === null ? null : cents / 100;
  }
  switch (name) {
    case 'engagementRate':
      return ratio(acc.get('totalInteractions'), acc.get('impressions'), 4);
    case 'avgWatchTime':
      return ratio(acc.get('videoViewTotalTime'), acc.get('_videoViews'), 2);
    case 'reach':
      return reach(acc);
    case 'frequency':
      return ratio(acc.get('impressions'), reach(acc), 2);
    case 'returnOnInvestment': {
      const cost = acc.get('cost');
      const rev = acc.get('revenue');
      return cost === null || rev === null || cost === 0 ? null : round((rev - cost) / cost, 4);
    }
    default:
      return null;
  }
}

/** The nested `metrics` object of a row, in the requested order. */
export function metricsObject(acc: Acc, names: readonly string[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const n of names) out[n] = metricValue(acc, n);
  return out;
}
