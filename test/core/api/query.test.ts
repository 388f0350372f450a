import { describe, expect, it } from 'vitest';
import { buildQuery, dataUrl, encodeArray, tokenUrl } from '#core/api/query';
import type { ReportRequest } from '#core/api/types';

const request = (over: Partial<ReportRequest> = {}): ReportRequest => ({
  route: 'campaigns/performance',
  metrics: ['likes', 'comments'],
  startDate: '2026-11-16',
  endDate: '2026-11-22',
  filters: {},
  ...over,
});

describe('encodeArray', () => {
  it('repeats the key for each value in the repeat format', () => {
    expect(encodeArray('metrics', ['likes', 'comments'], 'repeat')).toEqual([
      'metrics=likes',
      'metrics=comments',
    ]);
  });

  it('joins values with a literal comma in the comma format, encoding commas inside values', () => {
    expect(encodeArray('metrics', ['likes', 'a,b'], 'comma')).toEqual(['metrics=likes,a%2Cb']);
  });

  it('suffixes the key with literal [] in the brackets format', () => {
    expect(encodeArray('instanceIds', ['i 1', 'i&2'], 'brackets')).toEqual([
      'instanceIds[]=i%201',
      'instanceIds[]=i%262',
    ]);
  });

  it('sends nothing for an empty array', () => {
    expect(encodeArray('campaignIds', [], 'comma')).toEqual([]);
  });
});

describe('buildQuery', () => {
  it('sends dates, metrics, set filters, params, limit and the cursor on a paged metric route', () => {
    const q = buildQuery(
      request({
        filters: {
          platform: 'instagram',
          dateBasis: 'post_date',
          instanceIds: ['ins_1'],
          campaignIds: ['c1', 'c2'],
        },
        params: { sort: '-likes', flag: true },
      }),
      { arrayFormat: 'repeat', pageSize: 250, cursor: 'ab+c/d==' },
    );
    expect(q).toBe(
      'startDate=2026-11-16&endDate=2026-11-22&metrics=likes&metrics=comments&platform=instagram&dateBasis=post_date' +
        '&instanceIds=ins_1&campaignIds=c1&campaignIds=c2&sort=-likes&flag=true&limit=250&nextCursor=ab%2Bc%2Fd%3D%3D',
    );
  });

  it('percent-encodes a cursor holding + / = so it round-trips exactly', () => {
    const cursor = 'AQID+/8=x==';
    const q = buildQuery(request(), { arrayFormat: 'repeat', pageSize: 10, cursor });
    expect(q.split('nextCursor=')[1]).toBe('AQID%2B%2F8%3Dx%3D%3D');
    expect(new URLSearchParams(q).get('nextCursor')).toBe(cursor);
  });

  it('sends no dates, metrics or base filters to the campaigns list, only instanceIds and limit', () => {
    const q = buildQuery(
      request({
        route: 'campaigns',
        filters: { instanceIds: ['a', 'b'], platform: 'tiktok', campaignIds: ['c'] },
      }),
      { arrayFormat: 'comma', pageSize: 500 },
    );
    expect(q).toBe('instanceIds=a,b&limit=500');
  });

  it('sends no limit to an aggregate route, but follows a cursor if it sent one', () => {
    const opts = { arrayFormat: 'brackets' as const, pageSize: 500 };
    const first = buildQuery(request({ route: 'platforms/performance' }), opts);
    expect(first).toBe('startDate=2026-11-16&endDate=2026-11-22&metrics[]=likes&metrics[]=comments');
    const next = buildQuery(request({ route: 'platforms/performance' }), { ...opts, cursor: 'n' });
    expect(next.endsWith('&nextCursor=n')).toBe(true);
  });

  it('omits filters that are unset or empty', () => {
    const q = buildQuery(request({ filters: { instanceIds: [], campaignIds: [] } }), {
      arrayFormat: 'repeat',
      pageSize: 5,
    });
    expect(q).toBe('startDate=2026-11-16&endDate=2026-11-22&metrics=likes&metrics=comments&limit=5');
  });
});

describe('URLs', () => {
  it('keeps a path in the base URL and never doubles slashes', () => {
    expect(dataUrl('https://h.example/api/', 'posts/performance', 'a=1')).toBe(
      'https://h.example/api/v2/posts/performance?a=1',
    );
    expect(tokenUrl('https://h.example/')).toBe('https://h.example/oauth/token');
  });
});
