/**
 * Plan a run: schedule + scheduled time → its window and the windows of the `lookback` previous
 * occurrences → one task per (window, report) (all reports, or those asked for, each once).
 */
import type { Config } from '../config/schema';
import { lookbackWindows } from '../lookback';
import { computeWindow } from '../window';
import { findReport, findSchedule } from './lookup';
import type { PlanDeps, RunPlan, RunRequest } from './types';

/**
 * Builds the run plan. Throws USAGE for an unknown schedule or report id (before anything is written).
 */
export function planRun(config: Config, request: RunRequest, deps: PlanDeps): RunPlan {
  const schedule = findSchedule(config, request.scheduleId);
  // a report asked for twice is exported once: two exports of one partition at once would race on
  // its staging folder and leave the manifest and `_SUCCESS` disagreeing
  const reports = request.reportIds?.length
    ? [...new Set(request.reportIds)].map((id) => findReport(schedule, id))
    : schedule.reports;
  const window = computeWindow(schedule.window, request.scheduledTime, schedule.timezone);
  const lookback = lookbackWindows(schedule, request.scheduledTime, window);
  const runId = deps.newRunId();
  const tasksOf = (w: typeof window, restate: boolean) =>
    reports.map((r) => ({
      runId,
      scheduleId: schedule.id,
      reportId: r.id,
      scheduledTime: request.scheduledTime,
      window: w,
      ...(restate ? { restate: true } : {}),
    }));
  return {
    runId,
    scheduleId: schedule.id,
    scheduledTime: request.scheduledTime,
    window,
    lookback,
    startedAt: deps.now().toISOString(),
    tasks: [...tasksOf(window, false), ...lookback.flatMap((l) => tasksOf(l.window, true))],
  };
}
