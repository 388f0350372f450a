/**
 * The simulated world: instances, campaigns, creators (small, built once) and posts (computed on
 * demand from (day, index), never stored). Everything derives from the seed.
 */
import { CONTENT_TYPE_LIST, CONTENT_TYPES, type ContentType, type Platform } from './catalog';
import {
  CAPTION_PARTS,
  HASHTAGS,
  HOSTILE_ACCOUNTS,
  HOSTILE_CAMPAIGNS,
  HOSTILE_NAMES,
  PLAIN_NAMES,
  REALISTIC_ACCOUNTS,
  REALISTIC_CAMPAIGNS,
  REALISTIC_CAPTIONS,
  REALISTIC_HASHTAGS,
  realisticCreator,
} from './hostile';
import { hash32, pick } from './prng';

export interface Scale {
  postsPerDay: number;
  campaigns: number;
  creators: number;
  instances: number;
}

export const DEFAULT_SCALE: Scale = { postsPerDay: 300, campaigns: 24, creators: 60, instances: 4 };

export interface Instance {
  id: string;
  name: string;
}
export interface Campaign {
  id: string;
  name: string;
  status: string;
  startDate: string;
  endDate: string;
  instanceId: string;
  instanceIndex: number;
}
export interface Creator {
  id: string;
  name: string;
  handle: string;
}
export interface Post {
  day: number;
  index: number;
  campaign: number;
  creator: number;
  contentType: ContentType;
  platform: Platform;
  paid: boolean;
}

const STATUSES = ['active', 'paused', 'completed', 'draft', 'archived'];

export const DAY_MS = 86_400_000;
const two = (n: number): string => (n < 10 ? `0${n}` : String(n));
export const dayOf = (iso: string): number => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
export const isoOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

export class World {
  readonly instances: Instance[];
  readonly campaigns: Campaign[];
  readonly creators: Creator[];
  /** Instances 0..boundInstances-1 are bound to the default client; the last one is not. */
  readonly boundInstances: number;
  /**
   * Campaigns that carry posts: those on bound instances, so an unfiltered window serves exactly
   * postsPerDay × days posts. Campaigns of the unbound instance exist only in metadata.
   */
  private readonly postCampaigns: number[];

  constructor(
    readonly seed: number,
    readonly scale: Scale,
    /** Hostile text in names and captions (tests); realistic text otherwise (the demo). */
    readonly hostile = false,
  ) {
    const nInst = Math.max(2, scale.instances);
    this.boundInstances = nInst - 1;
    const accounts = hostile ? HOSTILE_ACCOUNTS : REALISTIC_ACCOUNTS;
    this.instances = Array.from({ length: nInst }, (_, i) => ({
      id: `ins_${String(i + 1).padStart(4, '0')}`,
      name:
        i === nInst - 1
          ? (accounts[3] as string)
          : hostile || nInst - 1 > 3
            ? `${pick(accounts.slice(0, 3), i)} ${i + 1}`
            : (accounts[i] as string),
    }));
    const base = dayOf('2026-01-01');
    this.campaigns = Array.from({ length: Math.max(1, scale.campaigns) }, (_, i) => {
      const h = hash32(seed, i, 11);
      const start = base + (h % 200) - 100;
      // every campaign but a few lives on a bound instance, so filters by instance matter
      const instanceIndex = i % 7 === 6 ? nInst - 1 : hash32(seed, i, 12) % (nInst - 1);
      return {
        id: `cmp_${String(i + 1).padStart(5, '0')}`,
        name: hostile
          ? `${pick(HOSTILE_CAMPAIGNS, h >>> 3)} #${i + 1}`
          : `${REALISTIC_CAMPAIGNS[i % REALISTIC_CAMPAIGNS.length]}${i < REALISTIC_CAMPAIGNS.length ? '' : ` ${Math.floor(i / REALISTIC_CAMPAIGNS.length) + 1}`}`,
        // a real brand's campaigns with posts this week are running; a few are paused
        status: hostile ? pick(STATUSES, h >>> 7) : i % 6 === 5 ? 'paused' : 'active',
        startDate: isoOf(start),
        endDate: isoOf(start + 30 + ((h >>> 11) % 300)),
        instanceId: this.instances[instanceIndex]?.id as string,
        instanceIndex,
      };
    });
    this.postCampaigns = this.campaigns.flatMap((c, i) => (c.instanceIndex < this.boundInstances ? [i] : []));
    this.creators = Array.from({ length: Math.max(1, scale.creators) }, (_, i) => {
      const h = hash32(seed, i, 21);
      const id = `cr_${String(i + 1).padStart(6, '0')}`;
      if (!hostile) return { id, ...realisticCreator(i) };
      const name = i % 3 === 0 ? pick(HOSTILE_NAMES, h) : pick(PLAIN_NAMES, h);
      return { id, name, handle: `@creator_${i + 1}` };
    });
  }

  /** The post at (day, index); `index` < postsPerDay. */
  post(day: number, index: number): Post {
    const s = this.seed;
    const h = hash32(s, day, index, 1);
    const contentType = CONTENT_TYPE_LIST[hash32(s, day, index, 3) % CONTENT_TYPE_LIST.length] as ContentType;
    return {
      day,
      index,
      campaign: this.postCampaigns[h % this.postCampaigns.length] as number,
      creator: hash32(s, day, index, 2) % this.creators.length,
      contentType,
      platform: CONTENT_TYPES[contentType],
      paid: (h >>> 20) % 10 < 3,
    };
  }

  private readonly dayNames = new Map<number, string>();

  /** `YYYY-MM-DD` of a day number, cached: every served post needs it twice. */
  private isoDay(day: number): string {
    let d = this.dayNames.get(day);
    if (d === undefined) {
      d = isoOf(day);
      if (this.dayNames.size > 4096) this.dayNames.clear();
      this.dayNames.set(day, d);
    }
    return d;
  }

  postId(p: Post): string {
    return `p_${this.isoDay(p.day).replaceAll('-', '')}_${String(p.index).padStart(7, '0')}`;
  }

  /** Publication time, monotonic within a day so serving order is chronological. */
  publishedAt(p: Post): string {
    // formatted by hand: Date#toISOString was the largest cost when serving a million rows
    const ms = Math.floor((p.index * DAY_MS) / this.scale.postsPerDay);
    const milli = ms % 1000;
    const frac = milli < 10 ? `00${milli}` : milli < 100 ? `0${milli}` : String(milli);
    const hms = `${two(Math.floor(ms / 3_600_000))}:${two(Math.floor(ms / 60_000) % 60)}:${two(Math.floor(ms / 1000) % 60)}`;
    return `${this.isoDay(p.day)}T${hms}.${frac}Z`;
  }

  caption(p: Post): string {
    const h = hash32(this.seed, p.day, p.index, 5);
    return this.hostile
      ? `${pick(CAPTION_PARTS, h)} ${pick(CAPTION_PARTS, h >>> 8)}`
      : pick(REALISTIC_CAPTIONS, h);
  }

  hashtags(p: Post): string[] {
    const h = hash32(this.seed, p.day, p.index, 6);
    const tags: string[] = [];
    const from = this.hostile ? HASHTAGS : REALISTIC_HASHTAGS;
    for (let k = 0; k < h % 4; k++) tags.push(pick(from, h >>> (4 + k * 5)));
    return tags;
  }
}
