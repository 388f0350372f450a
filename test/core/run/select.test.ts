import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { occurrences } from '#core/occurrences';
import { backfillRuns, type ScheduleTiming, selectRun } from '#core/run/select';
import { computeWindow } from '#core/window';

const weekly: ScheduleTiming = {
  id: 'weekly',
  cron: '0 8 ? * MON *',
  timezone: 'Europe/Berlin',
  window: 'last-7-days',
};
const monthly: ScheduleTiming = {
  id: 'monthly',
  cron: '0 6 1 * ? *',
  timezone: 'America/New_York',
  window: 'previous-month',
};
const daily: ScheduleTiming = {
  id: 'daily',
  cron: '0 6 * * ? *',
  timezone: 'Asia/Tokyo',
  window: 'yesterday',
};
const sixHourly: ScheduleTiming = { id: 'r', cron: 'rate(6 hours)', timezone: 'UTC', window: 'yesterday' };
const mtd: ScheduleTiming = {
  id: 'mtd',
  cron: '0 7 ? * MON-FRI *',
  timezone: 'UTC',
  window: 'month-to-date',
};
const weekOfMonday: ScheduleTiming = {
  id: 'pw',
  cron: '0 5 ? * MON *',
  timezone: 'Pacific/Auckland',
  window: 'previous-week',
};
const SCHEDULES = [weekly, monthly, daily, sixHourly, mtd, weekOfMonday];

const windows = (runs: readonly { window: { start: string; end: string } }[]) =>
  runs.map((r) => `${r.window.start}..${r.window.end}`);
const day = (base: string, plus: number) =>
  DateTime.fromISO(base).plus({ days: plus }).toFormat('yyyy-MM-dd');

/** The oracle: every occurrence over a wide range, its window, kept when it overlaps from..to. */
function bruteForce(s: ScheduleTiming, from: string, to: string, now: Date): Set<string> {
  const out = new Set<string>();
  for (const t of occurrences(s.cron, s.timezone, day(from, -3), day(to, 70))) {
    if (t > now) continue;
    const w = computeWindow(s.window, t, s.timezone);
    if (w.start <= to && w.end >= from) out.add(`${w.start}..${w.end}`);
  }
  return out;
}

describe('backfillRuns: the windows whose data overlaps --from..--to', () => {
  it("the README's example: 2026-10-01..2026-11-22 of a Monday last-7-days schedule includes the week of 16–22 Nov", () => {
    const { runs, notYetDue } = backfillRuns(
      weekly,
      '2026-10-01',
      '2026-11-22',
      new Date('2026-11-25T00:00:00Z'),
    );
    expect(windows(runs)[0]).toBe('2026-09-28..2026-10-04');
    expect(windows(runs).at(-1)).toBe('2026-11-16..2026-11-22');
    expect(runs).toHaveLength(8);
    expect(runs.at(-1)?.scheduledTime).toBe('2026-11-23T07:00:00.000Z');
    expect(notYetDue).toEqual([]);
  });

  it('October of a monthly previous-month schedule is the one run on 1 November', () => {
    const { runs } = backfillRuns(monthly, '2026-10-01', '2026-10-31', new Date('2026-11-25T00:00:00Z'));
    expect(windows(runs)).toEqual(['2026-10-01..2026-10-31']);
    expect(runs[0]?.scheduledTime).toBe('2026-11-01T11:00:00.000Z'); // 06:00 EST: summer time ended that night
  });

  it('leaves out a window whose occurrence is still ahead, and returns it apart', () => {
    const { runs, notYetDue } = backfillRuns(
      weekly,
      '2026-11-20',
      '2026-11-26',
      new Date('2026-11-25T00:00:00Z'),
    );
    expect(windows(runs)).toEqual(['2026-11-16..2026-11-22']);
    expect(windows(notYetDue)).toEqual(['2026-11-23..2026-11-29']);
  });

  it('runs a window produced by several occurrences once, at the latest due one', () => {
    const { runs } = backfillRuns(sixHourly, '2026-11-01', '2026-11-01', new Date('2026-11-25T00:00:00Z'));
    expect(runs).toEqual([
      {
        scheduledTime: '2026-11-02T18:00:00.000Z',
        window: { start: '2026-11-01', end: '2026-11-01', timezone: 'UTC' },
      },
    ]);
  });

  it('refuses a reversed range', () => {
    expect(() => backfillRuns(daily, '2026-11-05', '2026-11-01', new Date())).toThrow(
      /not a valid date range/,
    );
  });

  it('property: selects exactly the brute-force set of due overlapping windows, each once, oldest first', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    for (const s of SCHEDULES) {
      // start dates across a year (a different weekday each time), ranges of 1, 17 and 45 days
      for (let offset = 0; offset < 330; offset += 61) {
        for (const len of [0, 16, 44]) {
          const from = day('2026-01-01', offset);
          const to = day(from, len);
          const { runs, notYetDue } = backfillRuns(s, from, to, now);
          const got = windows(runs);
          expect(new Set(got), `${s.id} ${from}..${to}`).toEqual(bruteForce(s, from, to, now));
          expect(got).toEqual([...new Set(got)].sort());
          for (const r of runs) expect(new Date(r.scheduledTime) <= now).toBe(true);
          for (const r of notYetDue) expect(new Date(r.scheduledTime) > now).toBe(true);
        }
      }
    }
  });
});

describe('selectRun: what `run` runs', () => {
  it('without --at: the latest occurrence at or before now, as the scheduler would have run it', () => {
    // Tuesday 25 Nov: the Monday 08:00 Berlin occurrence of the 23rd, window 16–22 Nov (not 18–24)
    const r = selectRun(weekly, undefined, new Date('2026-11-25T03:00:00Z'));
    expect(r.scheduledTime).toBe('2026-11-23T07:00:00.000Z');
    expect(r.window).toEqual({ start: '2026-11-16', end: '2026-11-22', timezone: 'Europe/Berlin' });
  });

  it('property: without --at, the greatest occurrence ≤ now, across 40 days', () => {
    for (const s of SCHEDULES) {
      const all = occurrences(s.cron, s.timezone, '2026-08-01', '2026-12-31');
      // every 29 hours: each hour of the day and each weekday in turn
      for (let h = 0; h < 24 * 40; h += 29) {
        const now = new Date(Date.parse('2026-10-20T00:00:00Z') + h * 3_600_000);
        const expected = all.filter((t) => t <= now).at(-1);
        expect(selectRun(s, undefined, now).scheduledTime, `${s.id} ${now.toISOString()}`).toBe(
          expected?.toISOString(),
        );
      }
    }
  });

  it("--at DATE: that day's occurrence in the schedule's timezone", () => {
    expect(selectRun(weekly, '2026-11-23', new Date()).scheduledTime).toBe('2026-11-23T07:00:00.000Z');
    expect(selectRun(monthly, '2026-11-01', new Date()).window.start).toBe('2026-10-01');
  });

  it('--at DATE on a day the schedule does not run is a usage error naming the schedule', () => {
    expect(() => selectRun(weekly, '2026-11-24', new Date())).toThrow(
      /"weekly" .* has no occurrence on 2026-11-24/,
    );
  });

  it('--at with a time: taken as given, without an offset in the schedule timezone', () => {
    expect(selectRun(daily, '2026-11-23T23:30', new Date()).window.end).toBe('2026-11-22');
    expect(() => selectRun(daily, 'yesterday', new Date())).toThrow(/neither a date .* nor an ISO-8601 time/);
  });
});
