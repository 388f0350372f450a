import { describe, expect, it } from 'vitest';
import { occurrences } from '#core/occurrences';

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('occurrences', () => {
  it('lists every Monday 08:00 Berlin in a range, oldest first, in UTC instants across a DST change', () => {
    expect(iso(occurrences('0 8 ? * MON *', 'Europe/Berlin', '2026-03-16', '2026-04-06'))).toEqual([
      '2026-03-16T07:00:00.000Z',
      '2026-03-23T07:00:00.000Z',
      '2026-03-30T06:00:00.000Z', // summer time from 29 March
      '2026-04-06T06:00:00.000Z',
    ]);
  });

  it('evaluates the day fields on the local date, not the UTC date (Auckland)', () => {
    // 06:00 on the 1st in Auckland is the previous day in UTC
    expect(iso(occurrences('0 6 1 * ? *', 'Pacific/Auckland', '2026-01-01', '2026-03-01'))).toEqual([
      '2025-12-31T17:00:00.000Z',
      '2026-01-31T17:00:00.000Z',
      '2026-02-28T17:00:00.000Z',
    ]);
  });

  it('handles the last day of the month and a leap February', () => {
    expect(iso(occurrences('30 23 L * ? *', 'UTC', '2028-01-15', '2028-03-31'))).toEqual([
      '2028-01-31T23:30:00.000Z',
      '2028-02-29T23:30:00.000Z',
      '2028-03-31T23:30:00.000Z',
    ]);
  });

  it('expands ranges, steps, lists and nth weekday', () => {
    expect(iso(occurrences('0 0/12 ? * MON-FRI *', 'UTC', '2026-11-20', '2026-11-23'))).toEqual([
      '2026-11-20T00:00:00.000Z',
      '2026-11-20T12:00:00.000Z',
      '2026-11-23T00:00:00.000Z',
      '2026-11-23T12:00:00.000Z',
    ]);
    expect(iso(occurrences('0 9 ? * 2#1 *', 'UTC', '2026-11-01', '2026-12-31'))).toEqual([
      '2026-11-02T09:00:00.000Z',
      '2026-12-07T09:00:00.000Z',
    ]);
  });

  it('fires once on a repeated hour and moves a skipped hour forward (New York)', () => {
    expect(iso(occurrences('30 1 * * ? *', 'America/New_York', '2026-11-01', '2026-11-01'))).toEqual([
      '2026-11-01T06:30:00.000Z', // once, at the second 01:30 (EST)
    ]);
    expect(iso(occurrences('30 2 * * ? *', 'America/New_York', '2026-03-08', '2026-03-08'))).toEqual([
      '2026-03-08T07:30:00.000Z',
    ]);
  });

  it('anchors rate() schedules at the start of the range', () => {
    expect(iso(occurrences('rate(12 hours)', 'UTC', '2026-11-01', '2026-11-02'))).toEqual([
      '2026-11-01T00:00:00.000Z',
      '2026-11-01T12:00:00.000Z',
      '2026-11-02T00:00:00.000Z',
      '2026-11-02T12:00:00.000Z',
    ]);
  });

  it('rejects a range whose end is before its start', () => {
    expect(() => occurrences('rate(1 day)', 'UTC', '2026-11-05', '2026-11-01')).toThrow(
      /not a valid date range/,
    );
  });
});
