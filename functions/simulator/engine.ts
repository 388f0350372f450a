/**
 * Turns a validated `Query` into rows. Posts are scanned lazily by ordinal (day × postsPerDay +
 * index) so a million-row window never sits in memory; grouped routes scan once and cache the sums
 * per filter set. Every route's numbers derive from the same per-post values, so they agree.
 */
import { PLATFORMS } from './catalog';
import { postRow } from './post-row';
import type { Query } from './query';
import { Acc, grown, metricsObject, portion, postSlots, SPREAD_DAYS } from './values';
import { isoOf, type Post, type World } from './world';

interface Groups {
  total: Acc;
  campaigns: Map<number, Acc>;
  creators: Map<number, Acc>;
  platforms: Map<string, Acc>;
  days: Map<number, Acc>;
}

const CACHE_SIZE = 8;

export class Engine {
  private readonly cache = new Map<string, Groups>();
  /** Every value is scaled by this (late-arriving metrics; see `advance`). */
  private factor = 1;
  constructor(
    readonly world: World,
    /** Growth of every value per `advance()`, as a fraction of its first value (0: values never change). */
    private readonly growth = 0,
  ) {}

  /** Late metrics arrive: every value grows by `growth` of its first value from now on. */
  advance(): void {
    this.factor += this.growth;
    this.cache.clear();
  }

  /** First and last day whose posts can contribute to the window. */
  private scanDays(q: Query): [number, number] {
    return [q.dateBasis === 'performance_date' ? q.startDay - (SPREAD_DAYS - 1) : q.startDay, q.endDay];
  }

  /** Number of post ordinals to scan for `q`. */
  scanLength(q: Query): number {
    const [a, b] = this.scanDays(q);
    return (b - a + 1) * this.world.scale.postsPerDay;
  }

  private matcher(q: Query): (p: Post) => boolean {
    const inScope = new Set(q.instances);
    const camps = q.campaignIds ? new Set(q.campaignIds) : undefined;
    const { campaigns } = this.world;
    return (p) => {
      const c = campaigns[p.campaign];
      if (c === undefined || !inScope.has(c.instanceIndex)) return false;
      if (camps && !camps.has(c.id)) return false;
      if (q.platform !== undefined && p.platform !== q.platform) return false;
      return q.contentType === undefined || p.contentType === q.contentType;
    };
  }

  private slotsIn(q: Query, p: Post, from = q.startDay, to = q.endDay): Float64Array {
    const slots = grown(postSlots(this.world.seed, p), this.factor);
    return q.dateBasis === 'performance_date' ? portion(slots, p.day, from, to) : slots;
  }

  /**
   * Post rows from ordinal `from`, stopping after `limit` matches or `budget` ordinals scanned
   * (so restrictive filters give short or empty pages, as a real service may). `next` is null at the end.
   */
  postsPage(q: Query, from: number, limit: number, budget: number): { rows: unknown[]; next: number | null } {
    const w = this.world;
    const ppd = w.scale.postsPerDay;
    const [first] = this.scanDays(q);
    const end = this.scanLength(q);
    const match = this.matcher(q);
    const rows: unknown[] = [];
    let k = from;
    const stop = Math.min(end, from + budget);
    for (; k < stop && rows.length < limit; k++) {
      const p = w.post(first + Math.floor(k / ppd), k % ppd);
      if (match(p)) rows.push(postRow(w, p, this.slotsIn(q, p), q.metrics));
    }
    return { rows, next: k >= end ? null : k };
  }

  /** Sums per campaign, creator, platform, day and in total for the filters of `q` (cached). */
  groups(q: Query): Groups {
    const key = JSON.stringify([
      q.startDay,
      q.endDay,
      q.dateBasis,
      q.platform,
      q.contentType,
      q.instances,
      q.campaignIds,
    ]);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const g: Groups = {
      total: new Acc(),
      campaigns: new Map(),
      creators: new Map(),
      platforms: new Map(),
      days: new Map(),
    };
    const get = <K>(m: Map<K, Acc>, k: K): Acc => {
      const a = m.get(k);
      if (a) return a;
      const fresh = new Acc();
      m.set(k, fresh);
      return fresh;
    };
    const w = this.world;
    const ppd = w.scale.postsPerDay;
    const [first, last] = this.scanDays(q);
    const match = this.matcher(q);
    for (let day = first; day <= last; day++) {
      for (let i = 0; i < ppd; i++) {
        const p = w.post(day, i);
        if (!match(p)) continue;
        const s = this.slotsIn(q, p);
        g.total.add(s);
        get(g.campaigns, p.campaign).add(s);
        get(g.creators, p.creator).add(s);
        get(g.platforms, p.platform).add(s);
        if (q.dateBasis === 'post_date') get(g.days, day).add(s);
        else {
          for (let d = Math.max(day, q.startDay); d <= Math.min(day + SPREAD_DAYS - 1, q.endDay); d++) {
            get(g.days, d).add(this.slotsIn(q, p, d, d));
          }
        }
      }
    }
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, g);
    return g;
  }

  /** All rows of a grouped or aggregate route (everything but posts) for `q`, in serving order. */
  groupedRows(q: Query): unknown[] {
    const w = this.world;
    switch (q.route) {
      case 'instances':
        return w.instances.slice(0, w.boundInstances).map((i) => ({ id: i.id, name: i.name }));
      case 'campaigns':
        return w.campaigns
          .filter((c) => q.instances.includes(c.instanceIndex))
          .map(({ id, name, status, startDate, endDate, instanceId }) => ({
            id,
            name,
            status,
            startDate,
            endDate,
            instanceId,
          }));
      case 'campaigns/performance':
        return [...this.groups(q).campaigns.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([i, acc]) => {
            const c = w.campaigns[i];
            return {
              campaignId: c?.id,
              name: c?.name,
              status: c?.status,
              instanceId: c?.instanceId,
              metrics: metricsObject(acc, q.metrics),
            };
          });
      case 'creators/performance':
        return [...this.groups(q).creators.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([i, acc]) => {
            const c = w.creators[i];
            return {
              creatorId: c?.id,
              name: c?.name,
              handle: c?.handle,
              metrics: metricsObject(acc, q.metrics),
            };
          });
      case 'platforms/performance':
      case 'platforms/return-on-investment': {
        const g = this.groups(q).platforms;
        return PLATFORMS.filter((p) => g.has(p)).map((p) => ({
          platform: p,
          metrics: metricsObject(g.get(p) as Acc, q.metrics),
        }));
      }
      case 'instances/performance':
        return [
          {
            instanceIds: q.instances.map((i) => w.instances[i]?.id),
            metrics: metricsObject(this.groups(q).total, q.metrics),
          },
        ];
      case 'instances/performance-over-time': {
        const days = this.groups(q).days;
        const out: unknown[] = [];
        for (let d = q.startDay; d <= q.endDay; d++) {
          out.push({
            startDate: isoOf(d),
            endDate: isoOf(d),
            metrics: metricsObject(days.get(d) ?? new Acc(), q.metrics),
          });
        }
        return out;
      }
      case 'posts/performance':
        return this.postsPage(q, 0, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY).rows;
    }
  }
}
