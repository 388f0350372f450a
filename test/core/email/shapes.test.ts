/**
 * The picture per report shape: an over-time report as bars in date order (from shuffled rows), list
 * routes as a count with its change, a top-N list only where `topBy` is set, and the same words for
 * snake_case columns as for the API's names.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '#core/config/load';
import { renderSummary } from '#core/email/summary';
import { topColumns } from '#core/email/top-columns';
import { buildTrend, MAX_BARS } from '#core/email/trend';
import type { SummaryInput } from '#core/email/types';
import type { SummaryRow } from '#core/export/top';
import type { Manifest, ManifestReport } from '#core/manifest';

const YAML = `
api: { baseUrl: http://127.0.0.1:9, credentialsSecret: s }
email: { from: r@example.com, currency: EUR }
schedules:
  - id: monthly
    title: Monthly overview
    cron: "0 6 1 * ? *"
    window: previous-month
    recipients: [lead@example.com]
    reports:
      - { id: trend, route: instances/performance-over-time, metrics: [likes, clicks], summary: { kpis: [likes] } }
      - { id: list, route: campaigns }
      - { id: roi, route: platforms/return-on-investment, metrics: [cost, revenue], summary: { kpis: [revenue] } }
      - id: spend
        route: platforms/performance
        metrics: [paidImpressions, paidAdSpend]
        labels: { paidImpressions: Paid reach }
        summary: { kpis: [paidAdSpend], topBy: paidImpressions, topN: 2 }
`;
const cfg = parseConfig(YAML);
const schedule = cfg.schedules[0];
if (!schedule) throw new Error('no schedule');

const entry = (
  over: Partial<ManifestReport> & Pick<ManifestReport, 'reportId' | 'route'>,
): ManifestReport => ({
  status: 'succeeded',
  rowCount: 0,
  pages: 1,
  columns: [],
  totals: {},
  error: null,
  files: [],
  ...over,
});

const DAYS = ['2026-10-03', '2026-10-01', '2026-10-02'];
const trendRows: SummaryRow[] = DAYS.map((d, i) => ({
  start_date: d,
  end_date: d,
  likes: [30, 10, 20][i] ?? 0,
  clicks: 1,
}));

function run(window: Manifest['window'], campaigns: number): Manifest {
  return {
    manifestVersion: 1,
    scheduleId: 'monthly',
    runId: 'r',
    scheduledTime: '2026-11-01T06:00:00Z',
    window,
    startedAt: '2026-11-01T06:00:00Z',
    finishedAt: '2026-11-01T06:01:00Z',
    status: 'succeeded',
    reports: [
      entry({
        reportId: 'trend',
        route: 'instances/performance-over-time',
        rowCount: 3,
        columns: [
          { name: 'start_date', type: 'date' },
          { name: 'end_date', type: 'date' },
          { name: 'likes', type: 'int64' },
          { name: 'clicks', type: 'int64' },
        ],
        totals: { likes: 60, clicks: 3 },
      }),
      entry({ reportId: 'list', route: 'campaigns', rowCount: campaigns }),
      entry({
        reportId: 'roi',
        route: 'platforms/return-on-investment',
        rowCount: 2,
        totals: { cost: 5, revenue: 9 },
      }),
      entry({
        reportId: 'spend',
        route: 'platforms/performance',
        rowCount: 3,
        columns: [
          { name: 'platform', type: 'string' },
          { name: 'paid_impressions', type: 'int64' },
          { name: 'paid_ad_spend', type: 'double' },
        ],
        totals: { paid_impressions: 600, paid_ad_spend: 3_006_870.99 },
      }),
    ],
  };
}

async function render(): Promise<{ html: string; text: string }> {
  const input: SummaryInput = {
    config: cfg,
    schedule: schedule as NonNullable<typeof schedule>,
    manifest: run({ start: '2026-10-01', end: '2026-10-31', timezone: 'UTC' }, 21),
    previous: run({ start: '2026-09-01', end: '2026-09-30', timezone: 'UTC' }, 19),
    top: {
      trend: trendRows,
      roi: [{ platform: 'instagram', cost: 1, revenue: 2 }],
      spend: [
        { platform: 'instagram', paid_impressions: 400, paid_ad_spend: 2_000_000.5 },
        { platform: 'tiktok', paid_impressions: 200, paid_ad_spend: 1_006_870.49 },
      ],
    },
    locate: (k) => k,
    readObject: async () => null,
  };
  const [m] = await renderSummary(input);
  if (!m) throw new Error('nothing rendered');
  return m;
}

describe('report shapes', () => {
  it('draws an over-time report as bars in date order, whatever order the rows came in, with peak and total', async () => {
    const { html, text } = await render();
    const bars = [...html.matchAll(/<td width="[\d.]+%" valign="bottom" title="([^"]+)"/g)].map((m) => m[1]);
    expect(bars).toEqual(['1 Oct: 10', '2 Oct: 20', '3 Oct: 30']);
    expect(html).toMatch(/data-role="trend"/);
    expect(text).toContain(
      'Likes per day:\n  1 Oct: 10\n  2 Oct: 20\n  3 Oct: 30\n  Highest: 3 Oct, 30 · Total: 60',
    );
    expect(html).not.toMatch(/Top \d+ days/);
  });

  it('shows a list route as a count with its change against the named window, not a table of ids', async () => {
    const { text } = await render();
    expect(text).toContain('Campaigns: 21  ▲ +2 (+10.5%) vs 1–30 Sep');
  });

  it('lists top rows only where topBy is set, with labels and money in the configured currency', async () => {
    const { text, html } = await render();
    expect(text).not.toMatch(/Top \d+ platforms by revenue/);
    // two of the three platforms shown, and said so; platform codes as their names
    expect(text).toContain('Top 2 of 3 platforms by paid reach:');
    expect(text).toContain('1. Instagram — 400 (Paid ad spend €2,000,001)');
    expect(text).toContain('Paid ad spend: €3,006,871');
    expect(html).toContain('Paid reach');
    expect(html).not.toMatch(/paid_impressions|paidImpressions|paid_ad_spend/);
  });

  it('groups a long series into at most MAX_BARS bars and keeps the total', () => {
    const rows = Array.from({ length: 366 }, (_, i) => ({
      startDate: new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10),
      likes: 1,
    }));
    const trend = buildTrend(rows.reverse(), 'startDate', 'likes');
    expect(trend.points.length).toBeLessThanOrEqual(MAX_BARS);
    expect(trend.points[0]?.start).toBe('2025-01-01');
    expect(trend.total).toBe(366);
  });

  it('picks the columns the email shows in one place, under either spelling, by shape', () => {
    const trend = schedule?.reports.find((r) => r.id === 'trend');
    const list = schedule?.reports.find((r) => r.id === 'list');
    if (!trend || !list) throw new Error('fixture changed');
    expect(topColumns(['start_date', 'end_date', 'window_start', 'likes', 'clicks'], trend)).toEqual([
      'start_date',
      'likes',
    ]);
    expect(topColumns(['id', 'name', 'status'], list)).toEqual([]);
    const report = schedule?.reports.find((r) => r.id === 'spend');
    if (!report) throw new Error('no spend report');
    expect(topColumns(['platform', 'window_start', 'paid_impressions', 'paid_ad_spend'], report)).toEqual([
      'platform',
      'paid_impressions',
      'paid_ad_spend',
    ]);
    expect(topColumns(['platform', 'paidImpressions', 'paidAdSpend'], report)).toEqual([
      'platform',
      'paidImpressions',
      'paidAdSpend',
    ]);
  });
});
