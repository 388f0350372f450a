/** Plan a run: schedule + scheduled time → window → one task per report (all, or those asked for). */
import type { Config } from '../config/schema';
import { computeWindow } from '../window';
import { findReport, findSchedule } from './lookup';
import type { PlanDeps, RunPlan, RunRequest } from './types';

/**
 * Builds the run plan. Throws USAGE for an unknown schedule or report id (before anything is written).
 */
export function planRun(config: Config, request: RunRequest, deps: PlanDeps): RunPlan {
  const schedule = findSchedule(config, request.scheduleId);
  const reports = request.reportIds?.length
    ? request.reportIds.map((id) => findReport(schedule, id))
    : schedule.reports;
  const window = computeWindow(schedule.window, request.scheduledTime, schedule.timezone);
  const runId = deps.newRunId();
  return {
    runId,
    scheduleId: schedule.id,
    scheduledTime: request.scheduledTime,
    window,
    startedAt: deps.now().toISOString(),
    tasks: reports.map((r) => ({
      runId,
      scheduleId: schedule.id,
      reportId: r.id,
      scheduledTime: request.scheduledTime,
      window,
    })),
  };
}
