import { describe, expect, it } from 'vitest';
import { ExporterError } from '#core/errors';
import { computeWindow } from '#core/window';

// [case, window, scheduled instant (UTC), timezone, expected start, expected end]
const TABLE: readonly [string, string, string, string, string, string][] = [
  ['yesterday, plain UTC', 'yesterday', '2026-11-23T08:00:00Z', 'UTC', '2026-11-22', '2026-11-22'],
  ['yesterday across a year end', 'yesterday', '2027-01-01T06:00:00Z', 'UTC', '2026-12-31', '2026-12-31'],
  [
    'yesterday on March 1st of a leap year',
    'yesterday',
    '2028-03-01T12:00:00Z',
    'UTC',
    '2028-02-29',
    '2028-02-29',
  ],
  [
    'yesterday on March 1st of a common year',
    'yesterday',
    '2027-03-01T12:00:00Z',
    'UTC',
    '2027-02-28',
    '2027-02-28',
  ],
  // 23:30 UTC on the 22nd is already the 23rd in Auckland (UTC+13 in summer)
  [
    'Auckland is a day ahead of UTC',
    'yesterday',
    '2026-11-22T23:30:00Z',
    'Pacific/Auckland',
    '2026-11-22',
    '2026-11-22',
  ],
  [
    'Tokyo local date differs from UTC date',
    'last-7-days',
    '2026-11-22T16:00:00Z',
    'Asia/Tokyo',
    '2026-11-16',
    '2026-11-22',
  ],
  // 03:00 UTC on the 23rd is still the 22nd in New York
  [
    'New York is behind UTC',
    'yesterday',
    '2026-11-23T03:00:00Z',
    'America/New_York',
    '2026-11-21',
    '2026-11-21',
  ],
  ['last-7-days, Berlin', 'last-7-days', '2026-11-23T07:00:00Z', 'Europe/Berlin', '2026-11-16', '2026-11-22'],
  [
    'last-7-days spanning the Berlin spring-forward day',
    'last-7-days',
    '2026-03-30T06:00:00Z',
    'Europe/Berlin',
    '2026-03-23',
    '2026-03-29',
  ],
  [
    'last-7-days spanning the Berlin fall-back day',
    'last-7-days',
    '2026-10-26T07:00:00Z',
    'Europe/Berlin',
    '2026-10-19',
    '2026-10-25',
  ],
  [
    'yesterday = the New York spring-forward day',
    'yesterday',
    '2026-03-09T10:00:00Z',
    'America/New_York',
    '2026-03-08',
    '2026-03-08',
  ],
  [
    'yesterday = the New York fall-back day',
    'yesterday',
    '2026-11-02T11:00:00Z',
    'America/New_York',
    '2026-11-01',
    '2026-11-01',
  ],
  ['last-1-days equals yesterday', 'last-1-days', '2026-11-23T08:00:00Z', 'UTC', '2026-11-22', '2026-11-22'],
  [
    'last-366-days across a leap day',
    'last-366-days',
    '2028-12-31T12:00:00Z',
    'UTC',
    '2027-12-31',
    '2028-12-30',
  ],
  [
    'previous-week from a Monday',
    'previous-week',
    '2026-11-23T07:00:00Z',
    'Europe/Berlin',
    '2026-11-16',
    '2026-11-22',
  ],
  ['previous-week from a Sunday', 'previous-week', '2026-11-22T12:00:00Z', 'UTC', '2026-11-09', '2026-11-15'],
  [
    'previous-week across a year end',
    'previous-week',
    '2027-01-06T12:00:00Z',
    'UTC',
    '2026-12-28',
    '2027-01-03',
  ],
  [
    'previous-week across Berlin fall-back',
    'previous-week',
    '2026-10-26T07:00:00Z',
    'Europe/Berlin',
    '2026-10-19',
    '2026-10-25',
  ],
  [
    'previous-month into February of a leap year',
    'previous-month',
    '2028-03-01T11:00:00Z',
    'America/New_York',
    '2028-02-01',
    '2028-02-29',
  ],
  [
    'previous-month across a year end',
    'previous-month',
    '2027-01-01T11:00:00Z',
    'America/New_York',
    '2026-12-01',
    '2026-12-31',
  ],
  // 1 Dec 04:30 UTC is still 30 Nov in New York: previous month is October
  [
    'previous-month where local month lags UTC',
    'previous-month',
    '2026-12-01T04:30:00Z',
    'America/New_York',
    '2026-10-01',
    '2026-10-31',
  ],
  [
    'previous-month where Auckland is already next month',
    'previous-month',
    '2026-11-30T12:00:00Z',
    'Pacific/Auckland',
    '2026-11-01',
    '2026-11-30',
  ],
  ['month-to-date mid-month', 'month-to-date', '2026-11-23T08:00:00Z', 'UTC', '2026-11-01', '2026-11-22'],
  [
    'month-to-date on the 1st = the whole previous month',
    'month-to-date',
    '2026-11-01T08:00:00Z',
    'UTC',
    '2026-10-01',
    '2026-10-31',
  ],
  [
    'month-to-date on the 2nd = just the 1st',
    'month-to-date',
    '2026-11-02T08:00:00Z',
    'UTC',
    '2026-11-01',
    '2026-11-01',
  ],
  [
    'month-to-date on 1 March of a leap year',
    'month-to-date',
    '2028-03-01T08:00:00Z',
    'Europe/Berlin',
    '2028-02-01',
    '2028-02-29',
  ],
  [
    'month-to-date on Tokyo 1st while UTC is the last day',
    'month-to-date',
    '2026-11-30T20:00:00Z',
    'Asia/Tokyo',
    '2026-11-01',
    '2026-11-30',
  ],
];

describe('computeWindow', () => {
  it.each(TABLE)('%s', (_name, window, at, tz, start, end) => {
    expect(computeWindow(window, at, tz)).toEqual({ start, end, timezone: tz });
  });

  it('accepts a scheduled time with an offset and uses the instant, not the offset date', () => {
    // 2026-11-23T00:30+02:00 is 22:30 UTC on the 22nd; in UTC yesterday is the 21st
    expect(computeWindow('yesterday', '2026-11-23T00:30:00+02:00', 'UTC').end).toBe('2026-11-21');
  });

  it('rejects an unknown window name', () => {
    expect(() => computeWindow('last-week', '2026-11-23T08:00:00Z', 'UTC')).toThrow(ExporterError);
  });

  it('rejects a scheduled time that is not ISO-8601', () => {
    expect(() => computeWindow('yesterday', 'tomorrow', 'UTC')).toThrow(/not an ISO-8601 time/);
  });
});
