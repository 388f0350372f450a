import { describe, expect, it } from 'vitest';
import { parseConfig } from '#core/config/load';
import type { ScheduleConfig } from '#core/config/schema';
import { MAX_LOOKBACK } from '#core/config/schema-schedule';
import { lookbackWindows } from '#core/lookback';
import { planRun } from '#core/run/plan';
import { computeWindow } from '#core/window';

function schedule(
  cron: string,
  window: string,
  lookback: number,
  timezone = 'Europe/Berlin',
): ScheduleConfig {
  const config = parseConfig(`
api: { baseUrl: http://127.0.0.1:1, credentialsSecret: s }
schedules:
  - id: s
    cron: "${cron}"
    timezone: ${timezone}
    window: ${window}
    lookback: ${lookback}
    reports: [{ id: p, route: platforms/performance, metrics: [likes] }]
`);
  const [s] = config.schedules;
  if (!s) throw new Error('no schedule');
  return s;
}

const ends = (at: string, s: ScheduleConfig) =>
  lookbackWindows(s, at, computeWindow(s.window, at, s.timezone)).map((l) => [l.window.start, l.window.end]);

describe('lookbackWindows: the windows of the N previous occurrences', () => {
  it('a weekly Monday schedule re-exports the weeks its previous Mondays exported, newest first', () => {
    const s = schedule('0 8 ? * MON *', 'last-7-days', 2);
    expect(ends('2026-11-23T07:00:00Z', s)).toEqual([
      ['2026-11-09', '2026-11-15'],
      ['2026-11-02', '2026-11-08'],
    ]);
    const [last] = lookbackWindows(
      s,
      '2026-11-23T07:00:00Z',
      computeWindow(s.window, '2026-11-23T07:00:00Z', s.timezone),
    );
    expect(last?.scheduledTime).toBe('2026-11-16T07:00:00.000Z');
  });

  it('keeps each occurrence’s own local window across a DST change (Berlin, 29 March)', () => {
    const s = schedule('30 0 * * ? *', 'yesterday', 2);
    // 00:30 Berlin on 30 March is 22:30 UTC on the 29th; the earlier runs were at 23:30 UTC
    expect(ends('2026-03-29T22:30:00Z', s)).toEqual([
      ['2026-03-28', '2026-03-28'],
      ['2026-03-27', '2026-03-27'],
    ]);
  });

  it('a run between two occurrences (run --at) never re-exports its own window twice', () => {
    const s = schedule('0 8 * * ? *', 'yesterday', 2, 'UTC');
    // 10:00 is after today's 08:00 occurrence, whose window (yesterday) is this run's own
    expect(ends('2026-11-23T10:00:00Z', s)).toEqual([
      ['2026-11-21', '2026-11-21'],
      ['2026-11-20', '2026-11-20'],
    ]);
  });

  it('monthly schedules look back whole months, rate schedules whole intervals', () => {
    expect(
      ends('2026-11-01T10:00:00Z', schedule('0 6 1 * ? *', 'previous-month', 3, 'America/New_York')),
    ).toEqual([
      ['2026-09-01', '2026-09-30'],
      ['2026-08-01', '2026-08-31'],
      ['2026-07-01', '2026-07-31'],
    ]);
    expect(ends('2026-11-23T06:00:00Z', schedule('rate(6 hours)', 'yesterday', 2, 'UTC'))).toEqual([
      ['2026-11-21', '2026-11-21'],
      ['2026-11-20', '2026-11-20'],
    ]);
  });

  it('is empty without lookback, and the schema caps lookback at the documented maximum', () => {
    expect(ends('2026-11-23T07:00:00Z', schedule('0 8 ? * MON *', 'last-7-days', 0))).toEqual([]);
    expect(() => schedule('0 8 ? * MON *', 'last-7-days', MAX_LOOKBACK + 1)).toThrow(
      /lookback is at most 28/,
    );
    expect(ends('2026-11-23T07:00:00Z', schedule('0 8 * * ? *', 'yesterday', MAX_LOOKBACK))).toHaveLength(28);
  });
});

describe('planRun with lookback', () => {
  it('plans one task per (window, report): the current window first, then each earlier window', () => {
    const config = parseConfig(`
api: { baseUrl: http://127.0.0.1:1, credentialsSecret: s }
schedules:
  - id: daily
    cron: "0 8 * * ? *"
    window: yesterday
    lookback: 27
    reports:
${Array.from({ length: 20 }, (_, i) => `      - { id: r${i}, route: platforms/performance, metrics: [likes] }`).join('\n')}
`);
    const plan = planRun(
      config,
      { scheduleId: 'daily', scheduledTime: '2026-11-23T08:00:00Z' },
      { now: () => new Date('2026-11-23T08:00:01Z'), newRunId: () => 'run-1' },
    );
    expect(plan.lookback).toHaveLength(27);
    expect(plan.tasks).toHaveLength(28 * 20);
    expect(plan.tasks.slice(0, 20).every((t) => t.window.end === '2026-11-22' && !t.restate)).toBe(true);
    expect(plan.tasks.slice(20).every((t) => t.restate === true)).toBe(true);
    expect(new Set(plan.tasks.map((t) => `${t.window.end}/${t.reportId}`)).size).toBe(560);
    expect(plan.tasks.at(-1)).toMatchObject({
      reportId: 'r19',
      window: { start: '2026-10-26', end: '2026-10-26' },
    });
  });
});
