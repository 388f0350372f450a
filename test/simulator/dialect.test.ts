import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_ROUTE_SPECS } from '#simulator/routes';
import type { Simulator } from '#simulator/server';
import { get, qs, start, WINDOW } from './helpers';

let sim: Simulator;
let jwt: string;
beforeAll(async () => {
  ({ sim, jwt } = await start({ dialect: { strict: true, arrayFormat: 'repeat' } }));
});
afterAll(() => sim.close());

const M = ['likes', 'comments', 'shares'];
type Params = Record<string, string | number | string[] | undefined>;
const call = (route: string, params: Params, format: 'repeat' | 'comma' | 'brackets' = 'repeat') =>
  get(sim, jwt, `/v2/${route}?${qs(params, format)}`);
const detail = (body: unknown) => (body as { detail: string }).detail;
const metricKeys = (body: unknown) =>
  Object.keys((body as { data: { metrics: Record<string, unknown> } }).data.metrics);

describe('the route table is the simulator’s own reading of the endpoint table', () => {
  it('instances takes only limit and nextCursor; campaigns adds instanceIds', () => {
    expect(SIM_ROUTE_SPECS.instances.params).toEqual(['limit', 'nextCursor']);
    expect(SIM_ROUTE_SPECS.campaigns.params).toEqual(['limit', 'nextCursor', 'instanceIds']);
    expect(SIM_ROUTE_SPECS['platforms/performance'].params).not.toContain('limit');
  });
});

describe('strict mode', () => {
  it('answers 400 to a parameter the route does not take, naming it and the accepted set', async () => {
    const r = await call('instances', { instanceIds: [sim.truth.boundInstanceIds[0] ?? ''] });
    expect(r.status).toBe(400);
    expect(detail(r.body)).toBe('unknown parameter "instanceIds" on instances; accepted: limit, nextCursor.');
    const sort = await call('campaigns/performance', { ...WINDOW, metrics: M, pageNumber: 2 });
    expect(sort.status).toBe(400);
    expect(detail(sort.body)).toContain('unknown parameter "pageNumber"');
  });

  it('answers 400 to a limit over its maximum', async () => {
    const r = await call('posts/performance', { ...WINDOW, metrics: M, limit: 1001 });
    expect(r.status).toBe(400);
    expect(detail(r.body)).toBe('limit must be at most 1000, got 1001.');
    expect((await call('posts/performance', { ...WINDOW, metrics: M, limit: 1000 })).status).toBe(200);
  });

  it('answers 400 to arrays in an encoding other than the one it was started with', async () => {
    const comma = await call('instances/performance', { ...WINDOW, metrics: M }, 'comma');
    expect(comma.status).toBe(400);
    expect(detail(comma.body)).toBe(
      'metrics must be sent as repeated parameters (metrics=a&metrics=b); this request sent one comma-joined value (metrics=a,b).',
    );
    const brackets = await call('instances/performance', { ...WINDOW, metrics: M }, 'brackets');
    expect(brackets.status).toBe(400);
    const ok = await call('instances/performance', { ...WINDOW, metrics: M }, 'repeat');
    expect(ok.status).toBe(200);
    expect(metricKeys(ok.body)).toEqual(M);
  });

  it('a brackets server refuses plain parameters, even a single value', async () => {
    sim.setDialect({ arrayFormat: 'brackets' });
    try {
      const r = await call('instances/performance', { ...WINDOW, metrics: ['likes'] });
      expect(r.status).toBe(400);
      expect(detail(r.body)).toContain('this request sent a plain parameter (metrics=a)');
      const ok = await call('instances/performance', { ...WINDOW, metrics: M }, 'brackets');
      expect(metricKeys(ok.body)).toEqual(M);
    } finally {
      sim.setDialect({ arrayFormat: 'repeat' });
    }
  });
});

describe('a lenient server of one encoding reads other encodings the way such a server would', () => {
  it('comma: repeated metrics count as the first value only', async () => {
    sim.setDialect({ strict: false, arrayFormat: 'comma' });
    try {
      const repeated = await call('instances/performance', { ...WINDOW, metrics: M }, 'repeat');
      expect(repeated.status).toBe(200);
      expect(metricKeys(repeated.body)).toEqual(['likes']);
      const joined = await call('instances/performance', { ...WINDOW, metrics: M }, 'comma');
      expect(metricKeys(joined.body)).toEqual(M);
    } finally {
      sim.setDialect({ strict: true, arrayFormat: 'repeat' });
    }
  });

  it('repeat: a comma-joined value is one (unknown) metric name', async () => {
    sim.setDialect({ strict: false });
    try {
      const r = await call('instances/performance', { ...WINDOW, metrics: M }, 'comma');
      expect(r.status).toBe(400);
      expect((r.body as { invalidMetrics: string[] }).invalidMetrics).toEqual(['likes,comments,shares']);
    } finally {
      sim.setDialect({ strict: true });
    }
  });
});

describe('cursor location', () => {
  it('meta.nextCursor: list pages carry the cursor under meta, and it pages on', async () => {
    sim.setDialect({ cursorAt: 'meta.nextCursor' });
    try {
      const first = await call('campaigns/performance', { ...WINDOW, metrics: M, limit: 5 });
      const body = first.body as { data: unknown[]; meta: { nextCursor: string } };
      expect(body).not.toHaveProperty('nextCursor');
      expect(body.data).toHaveLength(5);
      expect(typeof body.meta.nextCursor).toBe('string');
      const second = await call('campaigns/performance', {
        ...WINDOW,
        metrics: M,
        limit: 5,
        nextCursor: body.meta.nextCursor,
      });
      expect(second.status).toBe(200);
      expect((second.body as { data: unknown[] }).data).not.toEqual(body.data);
    } finally {
      sim.setDialect({ cursorAt: 'nextCursor' });
    }
  });
});
