/**
 * Per-post metric values and how rows are aggregated from them. Additive quantities ("slots") are
 * generated per post and summed; ratios (engagementRate, avgWatchTime, reach, frequency,
 * returnOnInvestment) are computed from a row's sums, never summed. NaN in a slot means null
 * ("not available") and is skipped in sums; a row whose contributions are all null serves null.
 */
import { METRICS } from './catalog';
import { hash32, unit } from './prng';
import type { Post } from './world';

const COUNTS = [...METRICS.values()].filter((d) => d.kind !== 'ratio').map((d) => d.name);
/** Slot names: every additive metric, plus hidden helpers the ratios need. */
export const SLOTS = [...COUNTS, '_videoViews', '_reachBase', '_reachPosts'] as const;
const SLOT = new Map<string, number>(SLOTS.map((n, i) => [n, i]));
const at = (name: string): number => SLOT.get(name) as number;
const ON = SLOTS.map((n) => new Set(METRICS.get(n)?.on ?? []));

/** Share of a post's lifetime metrics that lands on day 0..6 after publication (performance_date). */
const CUM = [0.4, 0.6, 0.72, 0.82, 0.9, 0.96, 1];
export const SPREAD_DAYS = CUM.length;

/** Lifetime values of one post (money in cents), NaN where null. */
export function postSlots(seed: number, p: Post): Float64Array {
  const v = new Float64Array(SLOTS.length);
  const r = (k: number) => unit(seed, p.day, p.index, 100 + k);
  const views = 50 + Math.floor(r(0) ** 3 * 200_000);
  const impressions = Math.floor(views * (1.1 + r(1)));
  const likes = Math.floor(views * (0.01 + 0.1 * r(2)));
  const comments = Math.floor(likes * 0.08 * r(3));
  const shares = Math.floor(likes * 0.2 * r(4));
  const saves = Math.floor(likes * 0.3 * r(5));
  const clicks = Math.floor(views * 0.03 * r(6));
  const set = (name: string, x: number) => {
    v[at(name)] = x;
  };
  set('views', views);
  set('impressions', impressions);
  set('likes', likes);
  set('comments', comments);
  set('shares', shares);
  set('saves', saves);
  set('clicks', clicks);
  set('totalInteractions', likes + comments + shares + saves);
  const crossposted = Math.floor(views * 0.3 * r(7));
  set('crosspostedViews', crossposted);
  set('crosspostedFacebookOnlyViews', Math.floor(crossposted * 0.5 * r(8)));
  set('videoViewTotalTime', Math.floor(views * (2 + 25 * r(9))));
  set('_videoViews', views);
  set('navigationTapForward', Math.floor(impressions * 0.5 * r(10)));
  set('navigationTapBack', Math.floor(impressions * 0.1 * r(11)));
  set('navigationTapExit', Math.floor(impressions * 0.2 * r(12)));
  const paidImpressions = p.paid ? Math.floor(impressions * (0.5 + 2.5 * r(13))) : 0;
  set('paidImpressions', paidImpressions);
  set('paidEngagements', Math.floor(paidImpressions * 0.05 * r(14)));
  set('paidClicks', Math.floor(paidImpressions * 0.02 * r(15)));
  const adSpend = Math.floor(paidImpressions * (0.2 + 1.3 * r(16)));
  set('paidAdSpend', adSpend);
  set('cost', adSpend + 5_000 + Math.floor(45_000 * r(17)));
  const tClicks = Math.floor(clicks * 0.5 * r(18));
  const aClicks = Math.floor(clicks * 0.3 * r(19));
  const tRev = Math.floor(tClicks * 300 * r(20));
  const aRev = Math.floor(aClicks * 500 * r(21));
  set('trackingLinksClicks', tClicks);
  set('trackingLinksRevenue', tRev);
  set('affiliateLinksClicks', aClicks);
  set('affiliateLinksRevenue', aRev);
  set('revenue', tRev + aRev);
  set('_reachBase', Math.floor(impressions * (0.5 + 0.4 * r(22))));
  set('_reachPosts', 1);
  for (let k = 0; k < COUNTS.length; k++) {
    // ~6% of values are missing, and platform-specific ones are missing where they do not apply
    if (!ON[k]?.has(p.contentType) || hash32(seed, p.day, p.index, 1000 + k) % 100 < 6) v[k] = Number.NaN;
  }
  if (!ON[at('videoViewTotalTime')]?.has(p.contentType)) v[at('_videoViews')] = Number.NaN;
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

/** Running sums of slots for one row. */
export class Acc {
  readonly sum = new Float64Array(SLOTS.length);
  readonly has = new Uint8Array(SLOTS.length);
  posts = 0;
  add(slots: Float64Array): void {
    this.posts++;
    for (let k = 0; k < slots.length; k++) {
      const x = slots[k] as number;
      if (!Number.isNaN(x)) {
        this.sum[k] = (this.sum[k] as number) + x;
        this.has[k] = 1;
      }
    }
  }
  get(name: string): number | null {
    const k = at(name);
    return this.has[k] ? (this.sum[k] as number) : null;
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
