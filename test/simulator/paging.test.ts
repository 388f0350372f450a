import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '#simulator/server';
import { allPages, get, type Page, qs, start, WINDOW } from './helpers';

let sim: Simulator;
let jwt: string;
beforeAll(async () => {
  ({ sim, jwt } = await start({ scale: { postsPerDay: 150 } }));
});
afterAll(() => sim.close());

const M = ['likes', 'comments', 'engagementRate', 'avgWatchTime'];

describe('cursor paging', () => {
  it('concatenated pages equal the ground truth on every list route', async () => {
    const cases = [
      { route: 'posts/performance', params: { ...WINDOW, metrics: M }, limit: 97 },
      {
        route: 'posts/performance',
        params: { ...WINDOW, metrics: M, contentType: 'instagram_reel' },
        limit: 10,
      },
      { route: 'campaigns/performance', params: { ...WINDOW, metrics: M }, limit: 5 },
      { route: 'creators/performance', params: { ...WINDOW, metrics: M, platform: 'youtube' }, limit: 7 },
      { route: 'campaigns', params: WINDOW, limit: 4 },
      { route: 'instances', params: WINDOW, limit: 1 },
    ] as const;
    for (const c of cases) {
      const { rows, pages } = await allPages(sim, jwt, c.route, { ...c.params, limit: c.limit });
      const truth = sim.truth.rows(c.route, c.params);
      expect(rows, c.route).toEqual(truth);
      expect(truth.length, c.route).toBeGreaterThan(0);
      expect(pages, c.route).toBeGreaterThanOrEqual(Math.ceil(truth.length / c.limit));
    }
  });

  it('an unfiltered window serves exactly postsPerDay × days posts', () => {
    expect(sim.truth.rows('posts/performance', { ...WINDOW, metrics: ['likes'] })).toHaveLength(150 * 7);
  });

  it('cursors are opaque base64 with + / = and round-trip URL-encoded', async () => {
    const { cursors } = await allPages(sim, jwt, 'posts/performance', {
      ...WINDOW,
      metrics: ['likes'],
      limit: 10,
    });
    expect(cursors.length).toBeGreaterThan(50);
    expect(cursors.every((c) => c.endsWith('='))).toBe(true);
    expect(cursors.some((c) => c.includes('+'))).toBe(true);
    expect(cursors.some((c) => c.includes('/'))).toBe(true);
    // sent raw, '+' would arrive as a space and the cursor would no longer verify
    const withPlus = cursors.find((c) => c.includes('+')) as string;
    const raw = await get(
      sim,
      jwt,
      `/v2/posts/performance?${qs({ ...WINDOW, metrics: ['likes'], limit: 10 })}&nextCursor=${withPlus}`,
    );
    expect(raw.status).toBe(400);
  });

  it('rejects a forged cursor and a cursor from another query', async () => {
    const first = await get(sim, jwt, `/v2/campaigns?${qs({ limit: 2 })}`);
    const cursor = (first.body as Page).nextCursor as string;
    const forged = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;
    const a = await get(sim, jwt, `/v2/campaigns?${qs({ limit: 2, nextCursor: forged })}`);
    expect(a.status).toBe(400);
    expect((a.body as { title: string }).title).toBe('Invalid cursor');
    const b = await get(
      sim,
      jwt,
      `/v2/campaigns/performance?${qs({ ...WINDOW, metrics: M, limit: 2, nextCursor: cursor })}`,
    );
    expect(b.status).toBe(400);
  });

  it('caps limit at limitCap', async () => {
    sim.setFaults({ limitCap: 25 });
    const r = await get(
      sim,
      jwt,
      `/v2/posts/performance?${qs({ ...WINDOW, metrics: ['likes'], limit: 1000 })}`,
    );
    sim.setFaults({ limitCap: 1000 });
    expect((r.body as Page).data).toHaveLength(25);
    const full = await get(
      sim,
      jwt,
      `/v2/posts/performance?${qs({ ...WINDOW, metrics: ['likes'], limit: 1000 })}`,
    );
    expect((full.body as Page).data).toHaveLength(1000);
  });

  it('defaults to 100 rows per page', async () => {
    const r = await get(sim, jwt, `/v2/posts/performance?${qs({ ...WINDOW, metrics: ['likes'] })}`);
    expect((r.body as Page).data).toHaveLength(100);
  });

  it('serves empty pages that still carry a next cursor, without losing rows', async () => {
    sim.setFaults({ rateEmptyPage: 0.4 });
    const { rows, cursors, pages } = await allPages(sim, jwt, 'campaigns/performance', {
      ...WINDOW,
      metrics: M,
      limit: 3,
    });
    sim.setFaults({ rateEmptyPage: 0 });
    expect(rows).toEqual(sim.truth.rows('campaigns/performance', { ...WINDOW, metrics: M }));
    // more pages than rows need means some pages were empty
    expect(pages).toBeGreaterThan(Math.ceil(rows.length / 3) + 1);
    // each empty page still moves the cursor on, so a repeat guard does not fire
    expect(new Set(cursors).size).toBe(cursors.length);
  });

  it('marks the last page with null, an absent field or an empty string, depending on the query', async () => {
    const styles = new Set<string>();
    for (let day = 1; day <= 9; day++) {
      const params = { startDate: `2026-11-0${day}`, endDate: '2026-11-09', metrics: ['likes'], limit: 1000 };
      const page = (await get(sim, jwt, `/v2/campaigns/performance?${qs(params)}`)).body as Page;
      styles.add(
        !('nextCursor' in page)
          ? 'absent'
          : page.nextCursor === null
            ? 'null'
            : JSON.stringify(page.nextCursor),
      );
    }
    expect([...styles].sort()).toEqual(['""', 'absent', 'null']);
  });

  it('in repeatCursor mode returns the cursor it was sent, forever', async () => {
    sim.setFaults({ repeatCursor: true });
    const base = `/v2/posts/performance?${qs({ ...WINDOW, metrics: ['likes'], limit: 5 })}`;
    const first = (await get(sim, jwt, base)).body as Page;
    const c1 = first.nextCursor as string;
    const second = (await get(sim, jwt, `${base}&${qs({ nextCursor: c1 })}`)).body as Page;
    const third = (await get(sim, jwt, `${base}&${qs({ nextCursor: second.nextCursor as string })}`))
      .body as Page;
    sim.setFaults({ repeatCursor: false });
    expect(second.nextCursor).toBe(c1);
    expect(third.nextCursor).toBe(c1);
    expect(third.data).toEqual(second.data);
  });
});
