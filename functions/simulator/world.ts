/**
 * The simulated world: instances, campaigns, creators (small, built once) and posts (computed on
 * demand from (day, index), never stored). Everything derives from the seed.
 */
import { CONTENT_TYPE_LIST, CONTENT_TYPES, type ContentType, type Platform } from './catalog';
import { CAPTION_PARTS, HASHTAGS, HOSTILE_NAMES, PLAIN_NAMES } from './hostile';
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

const INSTANCE_NAMES = ['Acme Global', 'Acme EU, Brand "North"', 'Acme APAC', 'Acme Test (unbound)'];
const CAMPAIGN_WORDS = [
  'Spring Launch',
  'Summer, Sun & Fun',
  'Back to School',
  'Holiday "Gifts"',
  'Always-On',
];
const STATUSES = ['active', 'paused', 'completed', 'draft', 'archived'];

export const DAY_MS = 86_400_000;
export const dayOf = (iso: string): number => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
export const isoOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

export class World {
  readonly instances: Instance[];
  readonly campaigns: Campaign[];
  readonly creators: Creator[];
  /** Index set of instances bound to the default client: all but the last. */
  readonly boundInstances: number;

  constructor(
    readonly seed: number,
    readonly scale: Scale,
  ) {
    const nInst = Math.max(2, scale.instances);
    this.boundInstances = nInst - 1;
    this.instances = Array.from({ length: nInst }, (_, i) => ({
      id: `ins_${String(i + 1).padStart(4, '0')}`,
      name:
        i === nInst - 1 ? (INSTANCE_NAMES[3] as string) : `${pick(INSTANCE_NAMES.slice(0, 3), i)} ${i + 1}`,
    }));
    const base = dayOf('2026-01-01');
    this.campaigns = Array.from({ length: Math.max(1, scale.campaigns) }, (_, i) => {
      const h = hash32(seed, i, 11);
      const start = base + (h % 200) - 100;
      // every campaign but a few lives on a bound instance, so filters by instance matter
      const instanceIndex = i % 7 === 6 ? nInst - 1 : hash32(seed, i, 12) % (nInst - 1);
      return {
        id: `cmp_${String(i + 1).padStart(5, '0')}`,
        name: `${pick(CAMPAIGN_WORDS, h >>> 3)} #${i + 1}`,
        status: pick(STATUSES, h >>> 7),
        startDate: isoOf(start),
        endDate: isoOf(start + 30 + ((h >>> 11) % 300)),
        instanceId: this.instances[instanceIndex]?.id as string,
        instanceIndex,
      };
    });
    this.creators = Array.from({ length: Math.max(1, scale.creators) }, (_, i) => {
      const h = hash32(seed, i, 21);
      const name = i % 3 === 0 ? pick(HOSTILE_NAMES, h) : pick(PLAIN_NAMES, h);
      return { id: `cr_${String(i + 1).padStart(6, '0')}`, name, handle: `@creator_${i + 1}` };
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
      campaign: h % this.campaigns.length,
      creator: hash32(s, day, index, 2) % this.creators.length,
      contentType,
      platform: CONTENT_TYPES[contentType],
      paid: (h >>> 20) % 10 < 3,
    };
  }

  postId(p: Post): string {
    return `p_${isoOf(p.day).replaceAll('-', '')}_${String(p.index).padStart(7, '0')}`;
  }

  /** Publication time, monotonic within a day so serving order is chronological. */
  publishedAt(p: Post): string {
    return new Date(p.day * DAY_MS + Math.floor((p.index * DAY_MS) / this.scale.postsPerDay)).toISOString();
  }

  caption(p: Post): string {
    const h = hash32(this.seed, p.day, p.index, 5);
    return `${pick(CAPTION_PARTS, h)} ${pick(CAPTION_PARTS, h >>> 8)}`;
  }

  hashtags(p: Post): string[] {
    const h = hash32(this.seed, p.day, p.index, 6);
    const n = h % 4;
    return Array.from({ length: n }, (_, k) => pick(HASHTAGS, h >>> (4 + k * 5)));
  }
}
