import { describe, expect, it } from 'vitest';
import { ROUTE_SPECS, ROUTES } from '#core/config/routes';
import { SIM_ROUTE_SPECS } from '#simulator/routes';

describe('the route spec', () => {
  it('gives every route its path under /v2/, a noun, a title and one picture', () => {
    for (const route of ROUTES) {
      const spec = ROUTE_SPECS[route];
      expect(spec.path).toBe(`/v2/${route}`);
      expect(spec.noun[0]).not.toBe('');
      expect(spec.noun[1]).not.toBe('');
      expect(spec.title).toMatch(/^[A-Z]/);
      expect(['count', 'trend', 'ranked']).toContain(spec.picture);
    }
  });

  it('caps the email rows of exactly the trend routes, and lists take no metrics', () => {
    for (const route of ROUTES) {
      const spec = ROUTE_SPECS[route];
      expect(spec.trendCap !== null).toBe(spec.picture === 'trend');
      expect(spec.picture === 'count').toBe(spec.metrics === 'forbidden');
    }
  });

  it('agrees with the simulator’s own reading of the endpoint table', () => {
    for (const route of ROUTES) {
      const ours = ROUTE_SPECS[route];
      const sim = SIM_ROUTE_SPECS[route];
      expect({
        route,
        paged: ours.paged,
        baseFilters: ours.baseFilters,
        single: ours.response === 'object',
      }).toEqual({
        route,
        paged: sim.paged,
        baseFilters: sim.baseFilters,
        single: sim.single,
      });
      expect(sim.params.includes('instanceIds')).toBe(ours.instanceIds);
    }
  });
});
