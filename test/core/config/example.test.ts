import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '#core/config/load';

describe('the shipped example config', () => {
  it('validates and covers every v2 route', () => {
    const config = parseConfig(readFileSync('reports.yaml', 'utf8'));
    const routes = new Set(config.schedules.flatMap((s) => s.reports.map((r) => r.route)));
    expect(routes.size).toBe(9);
  });
});
