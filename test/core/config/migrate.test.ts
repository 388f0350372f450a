import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { migrateV1Url } from '#core/config/migrate';
import { V1_PATHS } from '#core/config/routes';
import { baseConfig, problemsOf } from './helpers';

const CAMPAIGN_URL =
  'https://api.example.com/v1/reporting/campaign/performance?startDate=2024-01-01&endDate=2024-01-31&instanceIds[]=a&reportingGroupIds=7&page=2';

/** The snippet pasted under a schedule's `reports:` of a valid config. */
function pasted(yaml: string): unknown {
  const config = baseConfig();
  const schedule = config.schedules[0];
  if (schedule) schedule.reports = parse(yaml) as Record<string, unknown>[];
  return config;
}

describe('migrateV1Url', () => {
  it('maps the campaign URL to campaigns/performance, keeps instanceIds and explains every drop', () => {
    const m = migrateV1Url(CAMPAIGN_URL);
    expect(m.v1Path).toBe('/v1/reporting/campaign/performance');
    expect(m.reports).toEqual([
      {
        id: 'campaigns-performance',
        route: 'campaigns/performance',
        metrics: [],
        filters: { instanceIds: ['a'] },
      },
    ]);
    expect(m.changes).toEqual(['path pluralized; metrics are required']);
    expect(m.dropped).toEqual([
      "startDate/endDate: the schedule's window sets the dates of each run (this URL asked for 2024-01-01 to 2024-01-31; window: previous-month)",
      'reportingGroupIds: removed in v2 and not accepted; scope the report with instanceIds (and campaignIds)',
      'page: v2 pages with a cursor (limit + nextCursor), which the exporter follows; page size is api.pageSize',
    ]);
    expect(m.yaml).toContain(
      'metrics: [] # REQUIRED on this route: list the metrics to export (the API answers 400 with the valid set)',
    );
    for (const line of [
      ...m.changes.map((c) => `# changed: ${c}`),
      ...m.dropped.map((d) => `# dropped: ${d}`),
    ]) {
      expect(m.yaml).toContain(line);
    }
  });

  it('produces YAML that validates once metrics are filled in, and fails validate until then', () => {
    const { yaml } = migrateV1Url(CAMPAIGN_URL);
    expect(problemsOf(pasted(yaml))).toEqual([
      'schedules[0].reports[0].metrics: route "campaigns/performance" requires metrics (the API rejects the request without them)',
    ]);
    expect(problemsOf(pasted(yaml.replace('metrics: []', 'metrics: [likes]')))).toEqual([]);
  });

  it.each([
    ['instanceIds=a&instanceIds=b&campaignIds=c', ['a', 'b'], ['c']],
    ['instanceIds[]=a&instanceIds[]=b&campaignIds[]=c', ['a', 'b'], ['c']],
    ['instanceIds[0]=a&instanceIds[1]=b&campaignIds%5B0%5D=c', ['a', 'b'], ['c']],
    ['instanceIds=a,b&campaignIds=c', ['a', 'b'], ['c']],
  ])('reads ids in any array style: %s', (query, instanceIds, campaignIds) => {
    const m = migrateV1Url(`/v1/reporting/post/performance?metrics=likes&${query}`);
    expect(m.reports[0]?.filters).toEqual({ instanceIds, campaignIds });
  });

  it.each(Object.entries(V1_PATHS).filter(([, v]) => v.route !== null))(
    'maps %s to its v2 route and yields a valid report',
    (path, { route, note }) => {
      const m = migrateV1Url(`${path}?metrics=likes`);
      expect(m.reports.map((r) => r.route)).toEqual([route]);
      expect(m.changes).toEqual([note]);
      expect(problemsOf(pasted(m.yaml))).toEqual([]);
    },
  );

  it.each(['/v1/reporting/instance/details', '/v1/reporting/instances/details'])(
    'replaces the dropped %s with the instances list and instances/performance',
    (path) => {
      const m = migrateV1Url(`https://api.example.com${path}?instanceIds=i-1`);
      expect(m.reports).toEqual([
        { id: 'instances', route: 'instances', filters: { instanceIds: ['i-1'] } },
        {
          id: 'instances-performance',
          route: 'instances/performance',
          metrics: [],
          filters: { instanceIds: ['i-1'] },
        },
      ]);
      expect(m.changes[0]).toContain('dropped in v2: take metadata from route "instances"');
      expect(problemsOf(pasted(m.yaml.replace('metrics: []', 'metrics: [likes]')))).toEqual([]);
    },
  );

  it('drops link metrics on platforms/performance and campaignIds on instances, with reasons', () => {
    const platforms = migrateV1Url('/v1/reporting/network/performance?metrics=likes,trackingLinksClicks');
    expect(platforms.reports[0]?.metrics).toEqual(['likes']);
    expect(platforms.dropped).toContain(
      'metrics trackingLinksClicks: route "platforms/performance" never returns trackingLinks*/affiliateLinks* metrics',
    );
    const instances = migrateV1Url('/v1/reporting/instances?campaignIds=c&metrics=likes');
    expect(instances.reports).toEqual([{ id: 'instances', route: 'instances' }]);
    expect(instances.dropped).toEqual([
      'metrics: route "instances" returns no metrics',
      'campaignIds: route "instances" takes only instanceIds of the filters',
    ]);
  });

  it('leaves metrics out on ROI (optional) and carries sorting into params verbatim', () => {
    const m = migrateV1Url(
      '/v1/reporting/network/return-on-investment?sortBy=roi&sortOrder=desc&pageSize=10',
    );
    expect(m.reports).toEqual([
      {
        id: 'platforms-return-on-investment',
        route: 'platforms/return-on-investment',
        params: { sortBy: 'roi', sortOrder: 'desc' },
      },
    ]);
    expect(m.dropped).toEqual([expect.stringMatching(/^pageSize: v2 pages with a cursor/)]);
  });

  it('suggests a last-N-days window for a plain day span', () => {
    const m = migrateV1Url(
      '/v1/reporting/post/performance?metrics=likes&startDate=2024-03-04&endDate=2024-03-10',
    );
    expect(m.dropped[0]).toContain('(this URL asked for 2024-03-04 to 2024-03-10; window: last-7-days)');
  });

  it('keeps hostile query text inside its comment line', () => {
    const m = migrateV1Url('/v1/reporting/network/performance?metrics=trackingLinks%0A-%20id:%20evil');
    const commentLines = m.yaml.split('\n').filter((l) => l.includes('evil'));
    expect(commentLines).toHaveLength(1);
    expect(commentLines[0]).toMatch(/^# dropped: /);
  });

  it.each(['https://api.example.com/v2/posts/performance', 'not a url at all', '/v1/reports/campaign'])(
    'rejects %s, which is not a v1 reporting URL',
    (url) => {
      expect(() => migrateV1Url(url)).toThrow(expect.objectContaining({ code: 'USAGE' }));
      expect(() => migrateV1Url(url)).toThrow(/is not a v1 reporting URL/);
    },
  );

  it('rejects a v1 reporting path that v2 does not replace', () => {
    expect(() => migrateV1Url('/v1/reporting/reporting-groups')).toThrow(
      '"/v1/reporting/reporting-groups" is not a v1 reporting route that v2 replaces',
    );
  });
});
