import { describe, expect, it } from 'vitest';
import { planRun } from '#core/run/plan';
import { weeklyConfig } from './fakes';

const CONFIG = weeklyConfig();

describe('planRun', () => {
  it('computes the window in the schedule timezone and plans the asked reports only', () => {
    const plan = planRun(
      CONFIG,
      { scheduleId: 'weekly', scheduledTime: '2026-11-23T07:00:00Z', reportIds: ['b'] },
      { now: () => new Date(0), newRunId: () => 'r' },
    );
    expect(plan.window).toEqual({ start: '2026-11-16', end: '2026-11-22', timezone: 'Europe/Berlin' });
    expect(plan.tasks.map((t) => t.reportId)).toEqual(['b']);
  });

  it('rejects an unknown report id with the ids that exist', () => {
    expect(() =>
      planRun(
        CONFIG,
        { scheduleId: 'weekly', scheduledTime: '2026-11-23T07:00:00Z', reportIds: ['x'] },
        { now: () => new Date(), newRunId: () => 'r' },
      ),
    ).toThrow(/unknown report "x".*a, b/);
  });

  it('plans a report asked for twice once, so no partition is written twice at once', () => {
    const plan = planRun(
      CONFIG,
      { scheduleId: 'weekly', scheduledTime: '2026-11-23T07:00:00Z', reportIds: ['b', 'a', 'b'] },
      { now: () => new Date(0), newRunId: () => 'r' },
    );
    expect(plan.tasks.map((t) => t.reportId)).toEqual(['b', 'a']);
  });
});
