import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { GROUPS_KEPT, migrateV1Url } from '#core/config/migrate';
import { V1_PATHS } from '#core/config/routes';
import { baseConfig, problemsOf } from './helpers';

const CAMPAIGN_URL =
  'https://api.example.com/v1/reporting/campaign/performance?startDate=2024-01-01&endDate=2024-01-31&instanceIds[]=a&reportingGroupIds=7&page=2';

const V1 = 'https://api.example.com/v1/reporting';
const DATES = 'startDate=2024-05-01&endDate=2024-05-31';
const REQUIRED =
  'metrics: route "instances/performance" requires metrics (the API rejects the request without them)';
const GROUPS =
  'filters.reportingGroupIds: reportingGroupIds was removed in v2 and is not accepted; scope the report with instanceIds (and campaignIds) instead';
/** Each v1 path of the API document's mapping table, with a query as a v1 integration would send it. */
const REALISTIC: [string, string[]][] = [
  [`${V1}/instances?page=1&pageSize=100&access_token=abc`, []],
  [`${V1}/instance/details?instanceIds=i-1&page=1`, [REQUIRED]],
  [`${V1}/instances/details?${DATES}&reportingGroupIds=g-1`, [GROUPS, REQUIRED]],
  [`${V1}/instance/performance?${DATES}&instanceIds=i-1,i-2&metrics=likes,comments&api_key=k`, []],
  [`${V1}/instance/performance-over-time?${DATES}&metrics[]=likes&metrics[]=shares&platform=instagram`, []],
  [
    `${V1}/campaign/performance?${DATES}&instanceIds[]=i-1&campaignIds[]=c-1&metrics=likes&sort=likes&pageNumber=2&page[size]=50`,
    [],
  ],
  [`${V1}/network/performance?${DATES}&metrics=likes,trackingLinksClicks&contentType=instagram_reel`, []],
  [`${V1}/network/return-on-investment?${DATES}&instanceIds=i-1&dateBasis=performance_date`, []],
  [
    `${V1}/influencer/performance?${DATES}&metrics=likes&reportingGroupIds=g-1&token=t`,
    [
      'filters.reportingGroupIds: reportingGroupIds was removed in v2 and is not accepted; scope the report with instanceIds (and campaignIds) instead',
    ],
  ],
  [`${V1}/post/performance?${DATES}&metrics=likes&platform=tiktok&offset=200&limit=100&signature=s`, []],
];

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
        filters: { instanceIds: ['a'], reportingGroupIds: ['7'] },
      },
    ]);
    expect(m.changes).toEqual(['path pluralized; metrics are required', GROUPS_KEPT]);
    expect(m.dropped).toEqual([
      "startDate/endDate: the schedule's window sets the dates of each run (this URL asked for 2024-01-01 to 2024-01-31; window: previous-month)",
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

  it('produces YAML that fails validate, saying why, until metrics are filled in and the groups rescoped', () => {
    const { yaml, problems } = migrateV1Url(CAMPAIGN_URL);
    const expected = [
      'filters.reportingGroupIds: reportingGroupIds was removed in v2 and is not accepted; scope the report with instanceIds (and campaignIds) instead',
      'metrics: route "campaigns/performance" requires metrics (the API rejects the request without them)',
    ];
    expect(problemsOf(pasted(yaml))).toEqual(expected.map((p) => `schedules[0].reports[0].${p}`));
    expect(problems).toEqual({ 'campaigns-performance': expected });
    expect(yaml).toContain(`# campaigns-performance: does not validate yet — ${expected.join('; ')}`);
    const fixed = yaml
      .replace('metrics: []', 'metrics: [likes]')
      .replace(/\n\s*reportingGroupIds: \["7"\]/, '');
    expect(problemsOf(pasted(fixed))).toEqual([]);
  });

  it('never widens scope: a URL scoped only by reporting groups yields an entry validate refuses', () => {
    const m = migrateV1Url('/v1/reporting/post/performance?metrics=likes&reportingGroupIds=7,8');
    expect(m.reports[0]?.filters).toEqual({ reportingGroupIds: ['7', '8'] });
    expect(problemsOf(pasted(m.yaml))).toEqual([
      'schedules[0].reports[0].filters.reportingGroupIds: reportingGroupIds was removed in v2 and is not accepted; scope the report with instanceIds (and campaignIds) instead',
    ]);
    expect(m.yaml).toContain(`# changed: ${GROUPS_KEPT}`);
  });

  it('drops every paging name, known or not, and never carries it into params', () => {
    const m = migrateV1Url(
      '/v1/reporting/post/performance?metrics=likes&pageNumber=3&page%5Bsize%5D=50&page[number]=2&offset=10&per_page=5',
    );
    expect(m.reports[0]?.params).toBeUndefined();
    expect(m.dropped.map((d) => d.split(':')[0])).toEqual([
      'pageNumber',
      'page[size]',
      'page[number]',
      'offset',
      'per_page',
    ]);
  });

  it('puts platform, contentType and dateBasis under filters', () => {
    const m = migrateV1Url(
      '/v1/reporting/campaign/performance?metrics=likes&platform=instagram&dateBasis=performance_date',
    );
    expect(m.reports[0]?.filters).toEqual({ platform: 'instagram', dateBasis: 'performance_date' });
    expect(m.reports[0]?.params).toBeUndefined();
    expect(problemsOf(pasted(m.yaml))).toEqual([]);
    const both = migrateV1Url(
      '/v1/reporting/post/performance?metrics=likes&platform=tiktok&contentType=tiktok_video',
    );
    expect(both.problems['posts-performance']).toEqual([
      'filters: platform and contentType are mutually exclusive',
    ]);
  });

  it.each([
    'access_token',
    'api_key',
    'apiKey',
    'token',
    'secret',
    'password',
    'signature',
    'client_secret',
    'X-Amz-Signature',
    'pageToken',
  ])('drops the credential-like parameter %s with a note and never prints its value', (key) => {
    const m = migrateV1Url(`/v1/reporting/post/performance?metrics=likes&${key}=hunter2-SECRET`);
    expect(m.reports[0]?.params).toBeUndefined();
    expect(m.dropped).toContain(
      `${key}: looks like a credential and is never copied into the config (the exporter gets its token with api.credentialsSecret); if this URL was shared, rotate that credential`,
    );
    expect(m.yaml).not.toContain('hunter2');
    expect(JSON.stringify(m)).not.toContain('hunter2');
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
        { id: 'instances', route: 'instances' },
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
      'campaignIds: route "instances" takes no filters',
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

  it.each(REALISTIC)(
    'every v1 route of the API document migrates to an entry that validates or says why: %s',
    (url, why) => {
      const m = migrateV1Url(url);
      const problems = m.reports.flatMap((r) => m.problems[r.id] ?? []);
      expect(problems).toEqual(why);
      expect(problemsOf(pasted(m.yaml))).toEqual(
        m.reports.flatMap((r, i) => (m.problems[r.id] ?? []).map((p) => `schedules[0].reports[${i}].${p}`)),
      );
      for (const r of m.reports) {
        expect(m.yaml).toContain(why.length === 0 ? `# ${r.id}: validates as printed` : `# ${r.id}:`);
      }
    },
  );

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
