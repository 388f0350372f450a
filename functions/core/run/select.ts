/**
 * Which scheduled times a CLI run or backfill uses: `run` without `--at` takes the schedule's most
 * recent occurrence at or before now (what EventBridge Scheduler would last have fired), `--at DATE`
 * that day's occurrence, and `backfill --from --to` every window whose data overlaps the date range.
 * Pure: the clock is an argument.
 */
import { DateTime } from 'luxon';
import { ExporterError } from '../errors';
import type { Window } from '../manifest';
import { occurrences } from '../occurrences';
import { computeWindow } from '../window';
import { lastNDays } from '../window-kinds';

/** The part of a schedule that decides its occurrences and windows. */
export interface ScheduleTiming {
  readonly id: string;
  readonly cron: string;
  readonly timezone: string;
  readonly window: string;
}

/** One run a backfill (or `run`) would make: the occurrence and the window of data it writes. */
export interface SelectedRun {
  readonly scheduledTime: string;
  readonly window: Window;
}

/**
 * The most days before its occurrence a window can start: `last-N-days` N, the others at most the
 * month before last's first day (`previous-month`, and `month-to-date` on the 1st).
 */
function reachDays(window: string): number {
  return lastNDays(window) ?? 62;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function localDate(d: DateTime): string {
  return d.toFormat('yyyy-MM-dd');
}

function runAt(schedule: ScheduleTiming, at: Date): SelectedRun {
  const scheduledTime = at.toISOString();
  return { scheduledTime, window: computeWindow(schedule.window, scheduledTime, schedule.timezone) };
}

/**
 * The schedule's latest occurrence at or before `now`, searched back up to `maxDays` (a `rate()`
 * schedule is anchored at local midnight, as `backfill` anchors it). Undefined when there is none.
 */
export function latestOccurrence(
  schedule: ScheduleTiming,
  now: Date,
  maxDays = 800,
): SelectedRun | undefined {
  const today = DateTime.fromJSDate(now, { zone: schedule.timezone }).startOf('day');
  // widen the search a step at a time: most schedules fire within the week
  for (const back of [7, 62, maxDays]) {
    const from = localDate(today.minus({ days: Math.min(back, maxDays) }));
    const past = occurrences(schedule.cron, schedule.timezone, from, localDate(today)).filter(
      (t) => t.getTime() <= now.getTime(),
    );
    const last = past.at(-1);
    if (last) return runAt(schedule, last);
  }
  return undefined;
}

/**
 * `run`'s scheduled time: without `--at` the latest occurrence at or before now; `--at YYYY-MM-DD`
 * that local day's first occurrence; `--at` with a time is taken as given (a time without an
 * offset in the schedule's timezone).
 */
export function selectRun(schedule: ScheduleTiming, at: string | undefined, now: Date): SelectedRun {
  if (at === undefined) {
    const latest = latestOccurrence(schedule, now);
    if (!latest) {
      throw new ExporterError(
        'USAGE',
        `schedule "${schedule.id}" (${schedule.cron}) has no occurrence in the last 800 days; give --at`,
      );
    }
    return latest;
  }
  if (DAY.test(at)) {
    const day = DateTime.fromISO(at, { zone: schedule.timezone });
    if (!day.isValid) throw new ExporterError('USAGE', `--at "${at}" is not a date (YYYY-MM-DD)`);
    const first = occurrences(schedule.cron, schedule.timezone, at, at)[0];
    if (!first) {
      throw new ExporterError(
        'USAGE',
        `schedule "${schedule.id}" (${schedule.cron}, ${schedule.timezone}) has no occurrence on ${at}; give a day it runs, or a time (--at ${at}T08:00)`,
      );
    }
    return runAt(schedule, first);
  }
  const t = DateTime.fromISO(at, { zone: schedule.timezone, setZone: true });
  if (!/^\d{4}-\d{2}-\d{2}T/.test(at) || !t.isValid) {
    throw new ExporterError(
      'USAGE',
      `--at "${at}" is neither a date (2026-11-23) nor an ISO-8601 time (2026-11-23T08:00:00+01:00)`,
    );
  }
  return runAt(schedule, t.toJSDate());
}

/** What a backfill runs, and the overlapping windows left out because their occurrence is still ahead. */
export interface BackfillSelection {
  readonly runs: readonly SelectedRun[];
  readonly notYetDue: readonly SelectedRun[];
}

/**
 * Every window of the schedule whose dates overlap `from..to` (inclusive local dates: a window
 * `start..end` is selected when start ≤ to and end ≥ from), oldest first, each run at the latest
 * occurrence that produces it. Windows whose occurrences all lie after `now` are not run (the
 * scheduler has not produced them yet; their data is not complete) and are returned apart.
 */
export function backfillRuns(
  schedule: ScheduleTiming,
  from: string,
  to: string,
  now: Date,
): BackfillSelection {
  const end = DateTime.fromISO(to, { zone: schedule.timezone });
  const searchTo = end.isValid ? localDate(end.plus({ days: reachDays(schedule.window) + 1 })) : to;
  // occurrences() validates the range itself (a usage error naming --from and --to)
  if (DateTime.fromISO(from) > DateTime.fromISO(to)) {
    throw new ExporterError(
      'USAGE',
      `--from ${from} --to ${to} is not a valid date range (YYYY-MM-DD, from ≤ to)`,
    );
  }
  const byWindow = new Map<string, { due?: SelectedRun; ahead?: SelectedRun }>();
  for (const t of occurrences(schedule.cron, schedule.timezone, from, searchTo)) {
    const run = runAt(schedule, t);
    if (run.window.start > to || run.window.end < from) continue;
    const key = `${run.window.start}..${run.window.end}`;
    const entry = byWindow.get(key) ?? {};
    if (t.getTime() <= now.getTime()) entry.due = run;
    else entry.ahead ??= run;
    byWindow.set(key, entry);
  }
  const byStart = (a: SelectedRun, b: SelectedRun) =>
    a.window.start.localeCompare(b.window.start) || a.window.end.localeCompare(b.window.end);
  const entries = [...byWindow.values()];
  return {
    runs: entries.flatMap((e) => (e.due ? [e.due] : [])).sort(byStart),
    notYetDue: entries.flatMap((e) => (!e.due && e.ahead ? [e.ahead] : [])).sort(byStart),
  };
}
