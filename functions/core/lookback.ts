/**
 * Lookback: the windows of a schedule's N previous occurrences, which a run re-exports so that late
 * metrics (likes, views and conversions that keep arriving for days) reach the files. Each earlier
 * window is exactly the one that occurrence's own run had: its scheduled instant, its window rule, in
 * the schedule's timezone. Windows are told apart by their end date (the partition key `dt=`), so an
 * occurrence whose window is the current one (a `run --at` between two occurrences) or one already
 * listed adds nothing, and the search goes on until N distinct earlier windows are found.
 */
import { DateTime } from 'luxon';
import { parseScheduleExpression } from './config/cron';
import type { ScheduleConfig } from './config/schema';
import { ExporterError } from './errors';
import type { Window } from './manifest';
import { occurrences } from './occurrences';
import { computeWindow } from './window';

export interface LookbackWindow {
  /** The occurrence whose run had this window (the latest one, when several share it). */
  readonly scheduledTime: string;
  readonly window: Window;
}

/** How far back the search for earlier occurrences goes before giving up (a cron limited by year). */
const MAX_SEARCH_DAYS = 5 * 366;

/**
 * The windows of the schedule's `lookback` previous occurrences before `scheduledTime`, newest first,
 * each ending before `current` ends. Fewer only when the schedule has no more earlier occurrences
 * within five years (a cron limited to past years).
 */
export function lookbackWindows(
  schedule: Pick<ScheduleConfig, 'cron' | 'timezone' | 'window' | 'lookback'>,
  scheduledTime: string,
  current: Window,
): LookbackWindow[] {
  const n = schedule.lookback;
  if (n <= 0) return [];
  const at = DateTime.fromISO(scheduledTime, { setZone: true });
  if (!at.isValid) throw new ExporterError('USAGE', `"${scheduledTime}" is not an ISO-8601 time`);
  const collect = (instants: readonly Date[]): LookbackWindow[] => {
    const out: LookbackWindow[] = [];
    const seen = new Set<string>([current.end]);
    for (const instant of instants) {
      const window = computeWindow(schedule.window, instant, schedule.timezone);
      if (window.end >= current.end || seen.has(window.end)) continue;
      seen.add(window.end);
      out.push({ scheduledTime: instant.toISOString(), window });
      if (out.length === n) break;
    }
    return out;
  };
  const parsed = parseScheduleExpression(schedule.cron);
  if ('error' in parsed) throw new ExporterError('CONFIG_INVALID', parsed.error);
  if (parsed.kind === 'rate') {
    // A rate has no calendar anchor: its earlier occurrences are this one minus whole intervals.
    const step = { [parsed.unit]: parsed.value };
    const found: LookbackWindow[] = [];
    for (let days = 8; found.length < n && days <= MAX_SEARCH_DAYS * 2; days *= 2) {
      const instants: Date[] = [];
      const stop = at.minus({ days });
      for (let t = at.minus(step); t > stop; t = t.minus(step)) instants.push(t.toJSDate());
      found.splice(0, found.length, ...collect(instants));
    }
    return found;
  }
  const localDay = at.setZone(schedule.timezone);
  let found: LookbackWindow[] = [];
  for (let days = 8 * (n + 1); ; days *= 2) {
    const span = Math.min(days, MAX_SEARCH_DAYS);
    const from = localDay.minus({ days: span }).toFormat('yyyy-MM-dd');
    const to = localDay.toFormat('yyyy-MM-dd');
    const earlier = occurrences(schedule.cron, schedule.timezone, from, to)
      .filter((d) => d.getTime() < at.toMillis())
      .reverse();
    found = collect(earlier);
    if (found.length >= n || span >= MAX_SEARCH_DAYS) return found;
  }
}
