/** One posts/performance row: identifying fields, two nested objects, an array field and metrics. */
import { Acc, metricsObject } from './values';
import type { Post, World } from './world';

const VIDEO = /video|reel|shorts/;

/** The row served for post `p` with these slot values (already cut to the window) and metrics. */
export function postRow(w: World, p: Post, slots: Float64Array, metrics: readonly string[]): unknown {
  const c = w.campaigns[p.campaign];
  const cr = w.creators[p.creator];
  const postId = w.postId(p);
  const video = VIDEO.test(p.contentType);
  return {
    postId,
    campaignId: c?.id,
    creatorId: cr?.id,
    instanceId: c?.instanceId,
    platform: p.platform,
    contentType: p.contentType,
    publishedAt: w.publishedAt(p),
    caption: w.caption(p),
    permalink: `https://social.example/${p.platform}/p/${postId}`,
    // `creator.id` repeats `creatorId` (a column collision the exporter must keep apart): hostile only
    creator: w.hostile
      ? { id: cr?.id, name: cr?.name, handle: cr?.handle }
      : { name: cr?.name, handle: cr?.handle },
    media: {
      format: p.contentType,
      isVideo: video,
      durationSeconds: video ? 5 + ((p.index * 7) % 170) : null,
    },
    hashtags: w.hashtags(p),
    metrics: metricsObject(Acc.of(slots), metrics),
  };
}
