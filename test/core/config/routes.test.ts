import { describe, expect, it } from 'vitest';
import { ROUTES, V1_PATHS } from '#core/config/routes';
import { PERFORMANCE_ROUTES } from '../../support/routes';
import { problemsOf, REPORT, withReport } from './helpers';

describe('report route', () => {
  it('rejects an unknown route and lists the nine v2 routes', () => {
    const problems = problemsOf(withReport({ route: 'campaign/stats', metrics: ['likes'] }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      new RegExp(`^${escapeRegExp(REPORT)}\\.route: unknown route "campaign/stats"`),
    );
    for (const route of ROUTES) expect(problems[0]).toContain(route);
  });

  it('rejects a missing route with the list of routes', () => {
    expect(problemsOf(withReport({ metrics: ['likes'] }))).toEqual([
      expect.stringMatching(/^schedules\[0\]\.reports\[0\]\.route: route must be one of: instances, /),
    ]);
  });

  const mapped = Object.entries(V1_PATHS).filter(([, v]) => v.route !== null);
  it.each(mapped)('rejects v1 path %s and names the v2 route to use', (path, { route }) => {
    const problems = problemsOf(withReport({ route: path, metrics: ['likes'] }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`${REPORT}.route: "${path}" is a v1 path; use route "${route}" instead`);
  });

  it('names the v2 route for a v1 URL with host and query string', () => {
    const url = 'https://api.example.com/v1/reporting/influencer/performance?startDate=2024-01-01';
    expect(problemsOf(withReport({ route: url, metrics: ['likes'] }))[0]).toContain(
      'use route "creators/performance" instead (influencer renamed to creators',
    );
  });

  it.each(['/v1/reporting/instance/details', '/v1/reporting/instances/details'])(
    'rejects the dropped %s route and names what replaces it',
    (path) => {
      const problems = problemsOf(withReport({ route: path }));
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(`${REPORT}.route: "${path}" is a v1 path that was dropped in v2`);
      expect(problems[0]).toContain('metadata from route "instances"');
      expect(problems[0]).toContain('performance from route "instances/performance"');
    },
  );

  it('rejects a v1 path that v2 has no counterpart for', () => {
    expect(problemsOf(withReport({ route: '/v1/reporting/reporting-groups' }))[0]).toContain(
      'is a v1 path that v2 does not have; use one of: instances,',
    );
  });

  it.each(['/v2/campaigns/performance', 'v2/campaigns/performance'])(
    'rejects the written /v2/ prefix in %s and shows the route without it',
    (route) => {
      expect(problemsOf(withReport({ route, metrics: ['likes'] }))).toEqual([
        `${REPORT}.route: write the route without the /v2/ prefix: "campaigns/performance"`,
      ]);
    },
  );
});

describe('metrics per route', () => {
  it.each(PERFORMANCE_ROUTES)('requires metrics on %s', (route) => {
    const expected = `${REPORT}.metrics: route "${route}" requires metrics (the API rejects the request without them)`;
    expect(problemsOf(withReport({ route }))).toEqual([expected]);
    expect(problemsOf(withReport({ route, metrics: [] }))).toEqual([expected]);
  });

  it('accepts platforms/return-on-investment with and without metrics', () => {
    expect(problemsOf(withReport({ route: 'platforms/return-on-investment' }))).toEqual([]);
    expect(problemsOf(withReport({ route: 'platforms/return-on-investment', metrics: ['roi'] }))).toEqual([]);
  });

  it.each(['instances', 'campaigns'])('rejects metrics on the %s list', (route) => {
    expect(problemsOf(withReport({ route, metrics: ['likes'] }))).toEqual([
      `${REPORT}.metrics: route "${route}" returns no metrics; remove metrics`,
    ]);
  });

  it.each([
    ['instances', 'no filters (only limit and nextCursor)'],
    ['campaigns', 'only instanceIds of the filters'],
  ])('accepts no base filters on %s', (route, takes) => {
    const problems = problemsOf(
      withReport({
        route,
        filters: { platform: 'instagram', dateBasis: 'post_date', campaignIds: ['c-1'] },
      }),
    );
    expect(problems).toEqual([
      `${REPORT}.filters.platform: route "${route}" takes ${takes}; remove platform`,
      `${REPORT}.filters.dateBasis: route "${route}" takes ${takes}; remove dateBasis`,
      `${REPORT}.filters.campaignIds: route "${route}" takes ${takes}; remove campaignIds`,
    ]);
    expect(problemsOf(withReport({ route, filters: { contentType: 'instagram_reel' } }))[0]).toContain(
      'filters.contentType: route',
    );
  });

  it('rejects a metric listed twice', () => {
    expect(problemsOf(withReport({ route: 'posts/performance', metrics: ['likes', 'likes'] }))).toEqual([
      `${REPORT}.metrics: metrics lists a name twice`,
    ]);
  });

  it.each(['platforms/performance', 'instances/performance-over-time', 'posts/performance'])(
    'rejects trackingLinks*/affiliateLinks* metrics on %s and names where they exist',
    (route) => {
      const problems = problemsOf(
        withReport({ route, metrics: ['likes', 'trackingLinksClicks', 'affiliateLinksRevenue'] }),
      );
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(
        `${REPORT}.metrics: route "${route}" never returns trackingLinks*/affiliateLinks* metrics (trackingLinksClicks, affiliateLinksRevenue)`,
      );
      expect(problems[0]).toContain(
        'available on instances/performance, campaigns/performance, platforms/return-on-investment, creators/performance',
      );
    },
  );

  it.each(['campaigns/performance', 'creators/performance', 'instances/performance'])(
    'accepts trackingLinks*/affiliateLinks* metrics on %s',
    (route) => {
      expect(
        problemsOf(withReport({ route, metrics: ['trackingLinksClicks', 'affiliateLinksRevenue'] })),
      ).toEqual([]);
    },
  );
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
