import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScheduleConfig } from '#core/config/schema';
import {
  groupInputBytes,
  MAX_GROUP_INPUT_BYTES,
  scheduleGroups,
  schedulerExpression,
} from '#core/schedule-groups';

const schedule = (id: string, cron: string, timezone = 'UTC', enabled = true) =>
  ({ id, cron, timezone, enabled }) as ScheduleConfig;

describe('scheduleGroups', () => {
  it('gives schedules of the same time one Scheduler schedule naming them all, in config order', () => {
    const groups = scheduleGroups([
      schedule('a', '0 8 * * ? *'),
      schedule('b', 'cron(0 8 * * ? *)'),
      schedule('c', '0 8 * * ? *', 'Europe/Berlin'),
      schedule('d', '0  8 * * ? *'),
      schedule('e', '0 8 * * ? *', 'UTC', false),
    ]);
    expect(groups.map((g) => [g.expression, g.timezone, g.enabled, g.scheduleIds])).toEqual([
      ['cron(0 8 * * ? *)', 'UTC', true, ['a', 'b', 'd']],
      ['cron(0 8 * * ? *)', 'Europe/Berlin', true, ['c']],
      ['cron(0 8 * * ? *)', 'UTC', false, ['e']],
    ]);
  });

  it('keeps a group key when schedules of that time are added or removed (the schedule is updated, not replaced)', () => {
    const before = scheduleGroups([schedule('a', '0 8 * * ? *'), schedule('x', '0 9 * * ? *')]);
    const after = scheduleGroups([schedule('b', '0 8 * * ? *'), schedule('a', '0 8 * * ? *')]);
    expect(after[0]?.key).toBe(before[0]?.key);
    expect(before[1]?.key).not.toBe(before[0]?.key);
  });

  it('writes config crons in the cron() form and keeps rate() and cron() as given', () => {
    expect(schedulerExpression('0 8 ? * MON *')).toBe('cron(0 8 ? * MON *)');
    expect(schedulerExpression(' cron(0 6 1 * ? *) ')).toBe('cron(0 6 1 * ? *)');
    expect(schedulerExpression('rate(6 hours)')).toBe('rate(6 hours)');
  });

  const ids = fc.uniqueArray(fc.stringMatching(/^[a-z0-9-]{1,40}$/), { minLength: 1, maxLength: 700 });
  const times = fc.constantFrom('0 8 * * ? *', '0 9 * * ? *', 'rate(1 hour)');
  test.prop([ids, fc.array(times, { minLength: 700, maxLength: 700 })], { seed: 28, numRuns: 40 })(
    'fires every schedule exactly once, at its own time, each input within the bound',
    (names, crons) => {
      const schedules = names.map((id, i) => schedule(id, crons[i] ?? '0 8 * * ? *'));
      const groups = scheduleGroups(schedules);
      expect(groups.flatMap((g) => g.scheduleIds).sort()).toEqual([...names].sort());
      for (const g of groups) {
        expect(groupInputBytes(g.scheduleIds)).toBeLessThanOrEqual(MAX_GROUP_INPUT_BYTES);
        for (const id of g.scheduleIds) {
          expect(schedulerExpression(schedules.find((s) => s.id === id)?.cron ?? '')).toBe(g.expression);
        }
      }
      expect(new Set(groups.map((g) => g.key)).size).toBe(groups.length);
    },
  );
});
