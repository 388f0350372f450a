/**
 * Report windows (docs/config.md, "Windows"): which dates a run covers, computed from the scheduled instant in the
 * schedule's IANA timezone. All arithmetic is on local calendar dates (luxon), so DST changes, month
 * ends, leap days and year ends need no special cases: "yesterday" is the local date before today's.
 */
import { DateTime } from 'luxon';
import { ExporterError } from './errors';
import type { Window } from './manifest';
import { type FixedWindow, isFixedWindow, lastNDays } from './window-kinds';

/**
 * The inclusive date window for `window` (e.g. `last-7-days`) as of `scheduledTime` in `timezone`.
 * `scheduledTime` is an ISO-8601 instant; the local date it falls on is "today" (never included).
 */
export function computeWindow(window: string, scheduledTime: string | Date, timezone: string): Window {
  const instant =
    typeof scheduledTime === 'string'
      ? DateTime.fromISO(scheduledTime, { setZone: true })
      : DateTime.fromJSDate(scheduledTime);
  if (!instant.isValid) {
    throw new ExporterError('USAGE', `"${String(scheduledTime)}" is not an ISO-8601 time`);
  }
  const local = instant.setZone(timezone);
  if (!local.isValid) throw new ExporterError('CONFIG_INVALID', `unknown timezone "${timezone}"`);
  const today = local.startOf('day');
  const yesterday = today.minus({ days: 1 });
  const range = (start: DateTime, end: DateTime): Window => ({
    start: isoDate(start),
    end: isoDate(end),
    timezone,
  });

  const fixed: Record<FixedWindow, () => Window> = {
    yesterday: () => range(yesterday, yesterday),
    'previous-week': () => {
      // luxon weeks are ISO weeks: they start on Monday.
      const start = today.startOf('week').minus({ weeks: 1 });
      return range(start, start.plus({ days: 6 }));
    },
    'previous-month': () => previousMonth(today, range),
    // On the 1st there is nothing of this month yet: report the whole previous month instead.
    'month-to-date': () =>
      today.day === 1 ? previousMonth(today, range) : range(today.startOf('month'), yesterday),
  };
  if (isFixedWindow(window)) return fixed[window]();
  const n = lastNDays(window);
  if (n !== undefined) return range(today.minus({ days: n }), yesterday);
  throw new ExporterError('CONFIG_INVALID', `unknown window "${window}"`);
}

function previousMonth(today: DateTime, range: (s: DateTime, e: DateTime) => Window): Window {
  const start = today.startOf('month').minus({ months: 1 });
  return range(start, start.endOf('month').startOf('day'));
}

function isoDate(d: DateTime): string {
  return d.toFormat('yyyy-MM-dd');
}
