import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '#simulator/server';
import { PERFORMANCE_ROUTES } from '../support/routes';
import { get, qs, start, WINDOW } from './helpers';

let sim: Simulator;
let jwt: string;
beforeAll(async () => {
  ({ sim, jwt } = await start());
});
afterAll(() => sim.close());

const M = ['likes', 'comments'];
const call = (route: string, params: Record<string, string | number | string[] | undefined>) =>
  get(sim, jwt, `/v2/${route}?${qs(params)}`);

describe('the nine data routes answer with the documented shapes', () => {
  it('instances: a page of {id, name} with a cursor field', async () => {
    const r = await call('instances', {});
    expect(r.status).toBe(200);
    const body = r.body as { data: Record<string, unknown>[] };
    expect(body.data.length).toBe(sim.truth.boundInstanceIds.length);
    for (const row of body.data) expect(Object.keys(row)).toEqual(['id', 'name']);
  });

  it('campaigns: name, status, dates and instanceId, no metrics', async () => {
    const r = await call('campaigns', { limit: 5 });
    const body = r.body as { data: Record<string, unknown>[]; nextCursor: string };
    expect(body.data).toHaveLength(5);
    expect(Object.keys(body.data[0] ?? {})).toEqual([
      'id',
      'name',
      'status',
      'startDate',
      'endDate',
      'instanceId',
    ]);
    expect(typeof body.nextCursor).toBe('string');
  });

  it('instances/performance: data is one object with instanceIds and metrics', async () => {
    const r = await call('instances/performance', { ...WINDOW, metrics: M });
    const body = r.body as { data: { instanceIds: string[]; metrics: Record<string, unknown> } };
    expect(Array.isArray(body.data)).toBe(false);
    expect(body.data.instanceIds).toEqual(sim.truth.boundInstanceIds);
    expect(Object.keys(body.data.metrics)).toEqual(M);
    expect(body).not.toHaveProperty('nextCursor');
  });

  it('instances/performance-over-time: one bucket per day with startDate, endDate, metrics', async () => {
    const r = await call('instances/performance-over-time', { ...WINDOW, metrics: M });
    const data = (r.body as { data: { startDate: string; endDate: string; metrics: object }[] }).data;
    expect(data).toHaveLength(7);
    expect(data[0]).toMatchObject({ startDate: '2026-11-02', endDate: '2026-11-02' });
    expect(data[6]).toMatchObject({ startDate: '2026-11-08', endDate: '2026-11-08' });
  });

  it('campaigns/performance, creators/performance and posts/performance: paged rows with nested metrics', async () => {
    const expected: Record<string, string[]> = {
      'campaigns/performance': ['campaignId', 'name', 'status', 'instanceId', 'metrics'],
      'creators/performance': ['creatorId', 'name', 'handle', 'metrics'],
      'posts/performance': [
        'postId',
        'campaignId',
        'creatorId',
        'instanceId',
        'platform',
        'contentType',
        'publishedAt',
        'caption',
        'permalink',
        'creator',
        'media',
        'hashtags',
        'metrics',
      ],
    };
    for (const [route, keys] of Object.entries(expected)) {
      const r = await call(route, { ...WINDOW, metrics: M, limit: 3 });
      expect(r.status, route).toBe(200);
      const body = r.body as { data: Record<string, unknown>[]; nextCursor: unknown };
      expect(body.data).toHaveLength(3);
      expect(Object.keys(body.data[0] ?? {}), route).toEqual(keys);
      expect(Object.keys(body.data[0]?.metrics as object)).toEqual(M);
      expect(typeof body.nextCursor).toBe('string');
    }
  });

  it('posts carry nested objects and an array field', async () => {
    const r = await call('posts/performance', { ...WINDOW, metrics: M, limit: 50 });
    const rows = (r.body as { data: { creator: object; media: object; hashtags: unknown }[] }).data;
    // realistic data by default: the creator's id is only in creatorId (hostile: true repeats it)
    expect(rows[0]?.creator).toEqual({
      name: expect.any(String),
      handle: expect.stringMatching(/^[a-z]+\.[a-z]+$/),
    });
    expect(rows.every((row) => Array.isArray(row.hashtags))).toBe(true);
    expect(rows.some((row) => (row.hashtags as unknown[]).length > 1)).toBe(true);
  });

  it('platforms/performance and return-on-investment: one row per platform', async () => {
    const perf = await call('platforms/performance', { ...WINDOW, metrics: M });
    const rows = (perf.body as { data: { platform: string }[] }).data;
    expect(rows.map((r) => r.platform)).toEqual(['instagram', 'tiktok', 'youtube', 'facebook']);
    const roi = await call('platforms/return-on-investment', WINDOW);
    expect(roi.status).toBe(200);
    const roiRows = (roi.body as { data: { platform: string; metrics: Record<string, unknown> }[] }).data;
    expect(roiRows).toHaveLength(4);
    expect(Object.keys(roiRows[0]?.metrics ?? {})).toEqual(
      sim.truth.validMetrics('platforms/return-on-investment'),
    );
    expect(Object.keys(roiRows[0]?.metrics ?? {})).toContain('returnOnInvestment');
  });

  it('answers 404 for an unknown route and 405 for a non-GET data request', async () => {
    expect((await get(sim, jwt, '/v2/influencers')).status).toBe(404);
    expect((await get(sim, jwt, '/v1/reporting/instances')).status).toBe(404);
    const res = await fetch(`${sim.baseUrl}/v2/instances`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
    });
    expect(res.status).toBe(405);
  });
});

describe('arrays in the query', () => {
  it('accepts repeat, comma and brackets formats with the same result', async () => {
    const params = {
      ...WINDOW,
      metrics: ['likes', 'shares'],
      instanceIds: sim.truth.boundInstanceIds.slice(0, 2),
    };
    const texts = await Promise.all(
      (['repeat', 'comma', 'brackets'] as const).map(
        async (f) => (await get(sim, jwt, `/v2/instances/performance?${qs(params, f)}`)).text,
      ),
    );
    expect(JSON.parse(texts[0] as string).data.instanceIds).toEqual(params.instanceIds);
    expect(Object.keys(JSON.parse(texts[0] as string).data.metrics)).toEqual(['likes', 'shares']);
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);
  });
});

describe('validation errors on data routes', () => {
  const errorBody = (r: { body: unknown }) =>
    r.body as { message: string; title: string; detail: string } & Record<string, unknown>;

  it('uses a plain JSON error body, not problem+json', async () => {
    const r = await call('campaigns/performance', { ...WINDOW });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(errorBody(r).message).toMatch(/metrics is required/);
  });

  it('rejects missing, malformed and reversed dates on metric routes', async () => {
    expect((await call('posts/performance', { metrics: M })).status).toBe(400);
    const bad = await call('posts/performance', {
      startDate: '2026-11-31',
      endDate: '2026-12-01',
      metrics: M,
    });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).detail).toMatch(/startDate/);
    const reversed = await call('posts/performance', {
      startDate: '2026-11-09',
      endDate: '2026-11-02',
      metrics: M,
    });
    expect(errorBody(reversed).title).toBe('Invalid date range');
  });

  it('rejects platform and contentType together', async () => {
    const r = await call('campaigns/performance', {
      ...WINDOW,
      metrics: M,
      platform: 'instagram',
      contentType: 'instagram_reel',
    });
    expect(r.status).toBe(400);
    expect(errorBody(r).detail).toMatch(/mutually exclusive/);
  });

  it('rejects a request without metrics on each of the six performance routes', async () => {
    for (const route of PERFORMANCE_ROUTES) {
      expect((await call(route, WINDOW)).status, route).toBe(400);
    }
  });

  it('names the valid set when a metric is not valid for the platform filter', async () => {
    const r = await call('campaigns/performance', {
      ...WINDOW,
      metrics: ['likes', 'crosspostedViews'],
      platform: 'tiktok',
    });
    expect(r.status).toBe(400);
    const body = errorBody(r);
    expect(body.invalidMetrics).toEqual(['crosspostedViews']);
    expect(body.validMetrics).toEqual(
      sim.truth.validMetrics('campaigns/performance', { platform: 'tiktok' }),
    );
    expect(body.detail).toContain(
      'Valid metrics for campaigns/performance with platform tiktok: likes, comments',
    );
    expect(body.validMetrics).not.toContain('crosspostedViews');
  });

  it('keeps trackingLinks and affiliateLinks off platforms/performance and posts', async () => {
    for (const route of ['platforms/performance', 'posts/performance', 'instances/performance-over-time']) {
      const r = await call(route, { ...WINDOW, metrics: ['likes', 'trackingLinksClicks'] });
      expect(r.status, route).toBe(400);
    }
    expect(
      (await call('creators/performance', { ...WINDOW, metrics: ['affiliateLinksRevenue'] })).status,
    ).toBe(200);
  });

  it('answers 403 naming an instance outside the bound set', async () => {
    const outside = sim.truth.unboundInstanceIds[0] as string;
    const r = await call('campaigns/performance', {
      ...WINDOW,
      metrics: M,
      instanceIds: [sim.truth.boundInstanceIds[0] as string, outside],
    });
    expect(r.status).toBe(403);
    expect(errorBody(r).detail).toContain(outside);
    expect((await call('campaigns', { instanceIds: [outside] })).status).toBe(403);
  });

  it('rejects reportingGroupIds as removed in v2, in any array format', async () => {
    for (const q of ['reportingGroupIds=1', 'reportingGroupIds[]=1&reportingGroupIds[]=2']) {
      const r = await get(sim, jwt, `/v2/campaigns/performance?${qs({ ...WINDOW, metrics: M })}&${q}`);
      expect(r.status).toBe(400);
      expect(errorBody(r).detail).toMatch(/removed in v2/);
    }
  });

  it('rejects an unknown platform, contentType or dateBasis and accepts performance_date', async () => {
    expect((await call('platforms/performance', { ...WINDOW, metrics: M, platform: 'myspace' })).status).toBe(
      400,
    );
    expect(
      (await call('platforms/performance', { ...WINDOW, metrics: M, contentType: 'tiktok_reel' })).status,
    ).toBe(400);
    expect((await call('platforms/performance', { ...WINDOW, metrics: M, dateBasis: 'today' })).status).toBe(
      400,
    );
    expect(
      (await call('platforms/performance', { ...WINDOW, metrics: M, dateBasis: 'performance_date' })).status,
    ).toBe(200);
  });

  it('narrows the allowlist by contentType: story navigation only on stories', async () => {
    const stories = sim.truth.validMetrics('posts/performance', { contentType: 'instagram_story' });
    const reels = sim.truth.validMetrics('posts/performance', { contentType: 'instagram_reel' });
    expect(stories).toContain('navigationTapForward');
    expect(reels).not.toContain('navigationTapForward');
    expect(reels).toContain('crosspostedViews');
    const r = await call('posts/performance', {
      ...WINDOW,
      metrics: ['navigationTapExit'],
      contentType: 'youtube_video',
    });
    expect(r.status).toBe(400);
  });

  it('sends no CORS headers', async () => {
    const r = await call('campaigns', {});
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('rejects a bad limit', async () => {
    expect((await call('campaigns', { limit: 0 })).status).toBe(400);
    expect((await call('campaigns', { limit: 'ten' })).status).toBe(400);
  });
});
