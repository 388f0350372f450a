/** `{"check": true}` to the Export Lambda: the check preflight with the Lambda's config, writing nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '#core/config/schema';
import { isCheckEvent, runCheck } from '#handlers/check';
import { type Simulator, startSimulator } from '#simulator/server';
import { exampleConfig } from '../e2e/helpers';

let sim: Simulator;
let config: Config;
beforeAll(async () => {
  sim = await startSimulator({ seed: 6, scale: { postsPerDay: 20 }, dialect: { arrayFormat: 'comma' } });
  config = await exampleConfig(sim.baseUrl);
  process.env.REPORTING_CLIENT_ID = sim.credentials.clientId;
  process.env.REPORTING_CLIENT_SECRET = sim.credentials.clientSecret;
});
afterAll(async () => {
  delete process.env.REPORTING_CLIENT_ID;
  delete process.env.REPORTING_CLIENT_SECRET;
  await sim.close();
});

describe('the Export Lambda’s check event', () => {
  it('is told apart from a step input', () => {
    expect(isCheckEvent({ check: true })).toBe(true);
    expect(isCheckEvent({ task: {}, checkpoint: null })).toBe(false);
  });

  it('checks one schedule over the given window and names the array encoding the server needs', async () => {
    const out = await runCheck(
      { check: true, scheduleId: 'weekly-campaigns', window: { start: '2026-11-16', end: '2026-11-17' } },
      config,
    );
    expect(out.ok).toBe(false);
    expect(out.window).toEqual({ start: '2026-11-16', end: '2026-11-17' });
    expect(out.reports.map((r) => r.reportId)).toEqual(['campaigns', 'creators', 'posts', 'platforms']);
    expect(out.reports.every((r) => r.arrayFormatThatWorks === 'comma')).toBe(true);
  });

  it('rejects a malformed check event', async () => {
    await expect(runCheck({ check: true, window: { start: 'yesterday' } }, config)).rejects.toThrow();
  });
});
