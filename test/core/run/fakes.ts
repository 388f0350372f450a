/** Test doubles for the export core: an in-process paged API (not a test file). */
import type { ApiPage, ApiRow, PageOptions, ReportingApi, ReportRequest } from '#core/api/types';
import { parseConfig } from '#core/config/load';
import type { Config } from '#core/config/schema';
import type { ReportTask } from '#core/run/types';

/** Serves `rows` in pages of `pageSize`; cursors are `c<offset>`. Optionally fails at a page index. */
export function pagedApi(
  rows: readonly ApiRow[],
  pageSize: number,
  failAtPage?: number,
): ReportingApi & { requests: number } {
  const api = {
    requests: 0,
    async *pages(_req: ReportRequest, options?: PageOptions): AsyncIterable<ApiPage> {
      let offset = options?.cursor ? Number(options.cursor.slice(1)) : 0;
      let index = 0;
      for (;;) {
        api.requests += 1;
        if (failAtPage !== undefined && offset / pageSize === failAtPage) {
          throw new Error('HTTP 500 from /v2/posts/performance after 5 retries');
        }
        const page = rows.slice(offset, offset + pageSize);
        offset += page.length;
        const nextCursor = offset < rows.length ? `c${offset}` : null;
        yield { rows: page, nextCursor, index };
        index += 1;
        if (nextCursor === null) return;
      }
    },
    async close() {},
  };
  return api;
}

/** The posts report of `postsConfig()` for the window of 2026-11-22 (UTC). */
export const POSTS_TASK: ReportTask = {
  runId: 'r1',
  scheduleId: 'daily',
  reportId: 'posts',
  scheduledTime: '2026-11-23T08:00:00Z',
  window: { start: '2026-11-22', end: '2026-11-22', timezone: 'UTC' },
};

export function postsConfig(extra = ''): Config {
  return parseConfig(`
api: { baseUrl: http://127.0.0.1:1, credentialsSecret: s }
output: { prefix: exports/, formats: [parquet, csv], maxRowsPerPart: 1000 }
schedules:
  - id: daily
    cron: "0 8 * * ? *"
    window: yesterday
    reports:
      - id: posts
        route: posts/performance
        metrics: [likes, shares, engagementRate]
        summary: { topBy: likes, topN: 3 }
${extra}`);
}

export function postRows(n: number, seed = 1): ApiRow[] {
  return Array.from({ length: n }, (_, i) => ({
    postId: `post-${seed}-${i}`,
    platform: ['instagram', 'tiktok'][i % 2],
    metrics: { likes: (i * 7919) % 1000, shares: i % 3 === 0 ? null : i, engagementRate: (i % 10) / 10 },
  }));
}

/** A weekly schedule (previous-week, Europe/Berlin) of two platforms reports, `a` with a KPI. */
export function weeklyConfig(): Config {
  return parseConfig(`
api: { baseUrl: http://127.0.0.1:1, credentialsSecret: s }
email: { from: Reports <reports@example.com> }
schedules:
  - id: weekly
    cron: "0 8 ? * MON *"
    timezone: Europe/Berlin
    window: previous-week
    recipients: [team@example.com]
    reports:
      - { id: a, route: platforms/performance, metrics: [likes], summary: { kpis: [likes] } }
      - { id: b, route: platforms/performance, metrics: [likes] }
`);
}
