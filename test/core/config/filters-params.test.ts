import { describe, expect, it } from 'vitest';
import { DEFAULT_TOP_N } from '#core/export/top';
import { problemsOf, REPORT, valid, withReport } from './helpers';

const REASON = 'reportingGroupIds was removed in v2 and is not accepted; scope the report with instanceIds';
const campaigns = { route: 'campaigns/performance', metrics: ['likes', 'comments'] };

describe('filters', () => {
  it('rejects reportingGroupIds in filters with the reason', () => {
    const problems = problemsOf(withReport({ ...campaigns, filters: { reportingGroupIds: ['7'] } }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`${REPORT}.filters.reportingGroupIds: ${REASON}`);
  });

  it.each(['reportingGroupIds', 'reportingGroupIds[]'])('rejects %s in params with the reason', (key) => {
    const problems = problemsOf(withReport({ ...campaigns, params: { [key]: '7' } }));
    expect(problems).toEqual([expect.stringContaining(`${REPORT}.params.${key}: ${REASON}`)]);
  });

  it('rejects reportingGroupIds written directly on the report with the reason', () => {
    expect(problemsOf(withReport({ ...campaigns, reportingGroupIds: ['7'] }))).toEqual([
      expect.stringContaining(`${REPORT}.reportingGroupIds: ${REASON}`),
    ]);
  });

  it('rejects platform and contentType together', () => {
    const filters = { platform: 'instagram', contentType: 'instagram_reel' };
    expect(problemsOf(withReport({ ...campaigns, filters }))).toEqual([
      `${REPORT}.filters: platform and contentType are mutually exclusive`,
    ]);
  });

  it('accepts platform or contentType alone, and both dateBasis values', () => {
    expect(problemsOf(withReport({ ...campaigns, filters: { platform: 'tiktok' } }))).toEqual([]);
    expect(problemsOf(withReport({ ...campaigns, filters: { contentType: 'youtube_shorts' } }))).toEqual([]);
    for (const dateBasis of ['post_date', 'performance_date']) {
      expect(problemsOf(withReport({ ...campaigns, filters: { dateBasis } }))).toEqual([]);
    }
  });

  it('rejects an unknown dateBasis', () => {
    expect(problemsOf(withReport({ ...campaigns, filters: { dateBasis: 'today' } }))[0]).toMatch(
      /^schedules\[0\]\.reports\[0\]\.filters\.dateBasis: .*post_date.*performance_date/,
    );
  });
});

describe('params', () => {
  it.each([
    'startDate',
    'endDate',
    'metrics',
    'metrics[]',
    'instanceIds',
    'campaignIds[]',
    'platform',
    'contentType',
    'dateBasis',
    'limit',
    'nextCursor',
  ])('rejects %s, which the exporter sets itself', (key) => {
    expect(problemsOf(withReport({ ...campaigns, params: { [key]: 'x' } }))).toEqual([
      `${REPORT}.params.${key}: "${key}" is set by the exporter (from the window, metrics, filters or paging); remove it from params`,
    ]);
  });

  it('sends other params verbatim (e.g. sorting)', () => {
    const params = { sortBy: 'likes', sortDesc: true, top: 5 };
    expect(problemsOf(withReport({ ...campaigns, params }))).toEqual([]);
  });
});

describe('summary', () => {
  it('rejects KPIs and topBy that are not among the metrics', () => {
    const summary = { kpis: ['likes', 'shares'], topBy: 'views' };
    expect(problemsOf(withReport({ ...campaigns, summary }))).toEqual([
      `${REPORT}.summary.kpis[1]: KPI "shares" is not one of this report's metrics`,
      `${REPORT}.summary.topBy: topBy "views" is not one of this report's metrics`,
    ]);
  });

  it('accepts KPIs and topBy among the metrics', () => {
    const summary = { kpis: ['likes', 'comments'], topBy: 'comments', topN: 3 };
    expect(problemsOf(withReport({ ...campaigns, summary }))).toEqual([]);
  });

  it('rejects topN outside 1–100', () => {
    expect(problemsOf(withReport({ ...campaigns, summary: { topN: 0 } }))[0]).toMatch(
      /^schedules\[0\]\.reports\[0\]\.summary\.topN: /,
    );
    expect(problemsOf(withReport({ ...campaigns, summary: { topBy: 'likes', topN: 101 } }))).toHaveLength(1);
  });

  it('rejects topN without topBy: a top list needs a metric to rank by', () => {
    expect(problemsOf(withReport({ ...campaigns, summary: { kpis: ['likes'], topN: 5 } }))).toEqual([
      `${REPORT}.summary.topN: topN needs topBy: name the metric that ranks the top list (e.g. "topBy: likes"), or remove topN`,
    ]);
  });

  it('leaves topN absent when topBy is given alone (the top list then has DEFAULT_TOP_N rows), so a parsed config validates again', () => {
    const config = valid(withReport({ ...campaigns, summary: { topBy: 'likes' } }));
    expect(config.schedules[0]?.reports[0]?.summary).toEqual({ kpis: [], topBy: 'likes' });
    expect(DEFAULT_TOP_N).toBe(10);
    expect(valid(JSON.parse(JSON.stringify(config)))).toEqual(config);
  });
});

describe('instances takes no filters', () => {
  it('rejects instanceIds on the instances route, which takes only limit and nextCursor', () => {
    const problems = problemsOf(withReport({ route: 'instances', filters: { instanceIds: ['inst-1'] } }));
    expect(problems).toEqual([
      `${REPORT}.filters.instanceIds: route "instances" takes no filters (only limit and nextCursor); remove instanceIds`,
    ]);
  });

  it('accepts instanceIds on campaigns', () => {
    expect(problemsOf(withReport({ route: 'campaigns', filters: { instanceIds: ['inst-1'] } }))).toEqual([]);
  });
});
