/** A parsed config, a two-report manifest, its predecessor and top rows: the summary's inputs. */
import { parseConfig } from '#core/config/load';
import type { Config, ScheduleConfig } from '#core/config/schema';
import type { SummaryInput } from '#core/email/types';
import type { SummaryRow } from '#core/export/top';
import type { Manifest, ManifestReport } from '#core/manifest';

export const CONFIG_YAML = `
api: { baseUrl: http://127.0.0.1:9, credentialsSecret: s }
email: { from: Reports <reports@example.com>, attachCsvUpToMiB: 1, currency: EUR }
schedules:
  - id: weekly-campaigns
    description: Weekly campaign performance
    cron: "0 8 ? * MON *"
    timezone: Europe/Berlin
    window: last-7-days
    recipients: [brand-team@example.com, cmo@example.com]
    reports:
      - id: creators
        route: creators/performance
        metrics: [likes, comments, engagementRate, affiliateLinksRevenue]
        summary: { kpis: [likes, comments, engagementRate, affiliateLinksRevenue], topBy: likes, topN: 3 }
      - id: posts
        route: posts/performance
        metrics: [likes, shares]
        summary: { kpis: [likes], topBy: likes, topN: 5 }
`;

export function config(yaml = CONFIG_YAML): { config: Config; schedule: ScheduleConfig } {
  const parsed = parseConfig(yaml);
  const schedule = parsed.schedules[0];
  if (!schedule) throw new Error('fixture has no schedule');
  return { config: parsed, schedule };
}

const SHA = 'a'.repeat(64);
export const CSV_KEY = 'exports/weekly-campaigns/creators/csv/dt=2026-11-22/part-00000.csv';

export function creatorsReport(overrides: Partial<ManifestReport> = {}): ManifestReport {
  return {
    reportId: 'creators',
    route: 'creators/performance',
    status: 'succeeded',
    rowCount: 12_345,
    pages: 25,
    columns: [
      { name: 'creatorId', type: 'string' },
      { name: 'name', type: 'string' },
      { name: 'platform', type: 'string' },
      { name: 'window_start', type: 'date' },
      { name: 'window_end', type: 'date' },
      { name: 'likes', type: 'int64' },
      { name: 'comments', type: 'int64' },
      { name: 'engagementRate', type: 'double' },
      { name: 'affiliateLinksRevenue', type: 'double' },
    ],
    totals: { likes: 1_234_567, comments: 890, affiliateLinksRevenue: 10_432.5 },
    error: null,
    files: [
      {
        format: 'parquet',
        key: 'exports/weekly-campaigns/creators/parquet/dt=2026-11-22/part-00000.parquet',
        bytes: 80_000,
        rows: 12_345,
        sha256: SHA,
      },
      {
        format: 'csv',
        key: CSV_KEY,
        bytes: 120_000,
        rows: 12_345,
        sha256: SHA,
      },
    ],
    ...overrides,
  };
}

export function postsReport(overrides: Partial<ManifestReport> = {}): ManifestReport {
  return {
    reportId: 'posts',
    route: 'posts/performance',
    status: 'failed',
    rowCount: 0,
    pages: 0,
    columns: [],
    totals: {},
    error: "The API answered 403 on posts/performance: instance in-9 is outside this client's set",
    files: [],
    ...overrides,
  };
}

export function manifest(
  reports: ManifestReport[] = [creatorsReport(), postsReport()],
  overrides: Partial<Manifest> = {},
): Manifest {
  const ok = reports.filter((r) => r.status === 'succeeded').length;
  return {
    manifestVersion: 1,
    scheduleId: 'weekly-campaigns',
    runId: 'run-2026-11-23T07-00',
    scheduledTime: '2026-11-23T07:00:00Z',
    window: { start: '2026-11-16', end: '2026-11-22', timezone: 'Europe/Berlin' },
    startedAt: '2026-11-23T07:00:01Z',
    finishedAt: '2026-11-23T07:03:12Z',
    status: ok === reports.length ? 'succeeded' : ok === 0 ? 'failed' : 'partial',
    reports,
    ...overrides,
  };
}

export const TOP_CREATORS: SummaryRow[] = [
  {
    creatorId: 'c-1',
    name: 'Ada <b>Lovelace</b>',
    platform: 'instagram',
    window_start: '2026-11-16',
    window_end: '2026-11-22',
    likes: 500_000,
    comments: 300,
    engagementRate: 0.0734,
    affiliateLinksRevenue: 5000.5,
  },
  {
    creatorId: 'c-2',
    name: 'Grace "Amazing" Hopper 🚀',
    platform: 'tiktok',
    window_start: '2026-11-16',
    window_end: '2026-11-22',
    likes: 400_000,
    comments: 200,
    engagementRate: 0.051,
    affiliateLinksRevenue: 3000,
  },
  {
    creatorId: 'c-3',
    name: 'Tom & Jerry',
    platform: 'youtube',
    window_start: '2026-11-16',
    window_end: '2026-11-22',
    likes: 300_000,
    comments: null,
    engagementRate: null,
    affiliateLinksRevenue: 0,
  },
];

/** A SummaryInput over in-memory objects; `objects` maps keys to CSV bytes. */
export function summaryInput(
  overrides: Partial<SummaryInput> = {},
  objects: Record<string, Uint8Array> = {},
): SummaryInput {
  const { config: cfg, schedule } = config();
  return {
    config: cfg,
    schedule,
    manifest: manifest(),
    previous: null,
    top: { creators: TOP_CREATORS },
    locate: (key) => `s3://acme-exports/${key}`,
    readObject: async (key) => objects[key] ?? null,
    ...overrides,
  };
}
