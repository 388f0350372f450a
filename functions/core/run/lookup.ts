/** Finding a schedule and its reports in the config, with usage errors that name what exists. */
import type { Config, ReportConfig, ScheduleConfig } from '../config/schema';
import { ExporterError } from '../errors';

export function findSchedule(config: Config, scheduleId: string): ScheduleConfig {
  const schedule = config.schedules.find((s) => s.id === scheduleId);
  if (!schedule) {
    throw new ExporterError(
      'USAGE',
      `unknown schedule "${scheduleId}"; the config has: ${config.schedules.map((s) => s.id).join(', ')}`,
    );
  }
  return schedule;
}

export function findReport(schedule: ScheduleConfig, reportId: string): ReportConfig {
  const report = schedule.reports.find((r) => r.id === reportId);
  if (!report) {
    throw new ExporterError(
      'USAGE',
      `unknown report "${reportId}" in schedule "${schedule.id}"; it has: ${schedule.reports.map((r) => r.id).join(', ')}`,
    );
  }
  return report;
}
