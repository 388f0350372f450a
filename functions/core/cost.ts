/**
 * What a run of a schedule costs in API data requests, stated before anything runs (`validate`). Every
 * report is requested once per window, and a run covers its own window plus `lookback` earlier ones,
 * so requests grow with lookback + 1. Paged routes add one request per `api.pageSize` rows beyond the
 * first page, which only the data can tell, so the figure is a floor.
 */
import { ROUTE_SPECS } from './config/routes';
import type { ScheduleConfig } from './config/schema';

export interface RequestEstimate {
  readonly scheduleId: string;
  /** The run's own window plus `lookback` earlier ones. */
  readonly windows: number;
  readonly reports: number;
  /** Reports on paged routes: each adds a request per further page of rows. */
  readonly pagedReports: number;
  /** windows × reports: one request per report and window, before further pages. */
  readonly minimum: number;
}

export function estimateRequests(schedule: ScheduleConfig): RequestEstimate {
  const windows = schedule.lookback + 1;
  const reports = schedule.reports.length;
  return {
    scheduleId: schedule.id,
    windows,
    reports,
    pagedReports: schedule.reports.filter((r) => ROUTE_SPECS[r.route].paged).length,
    minimum: windows * reports,
  };
}

/** One line for people: `weekly: 2 windows (lookback 1) × 4 reports = at least 8 data requests per run; …`. */
export function describeEstimate(e: RequestEstimate, pageSize: number): string {
  const windows = `${e.windows} window${e.windows === 1 ? '' : 's'} (lookback ${e.windows - 1})`;
  const paged =
    e.pagedReports > 0
      ? `; its ${e.pagedReports} paged report(s) add a request per ${pageSize} rows beyond each first page`
      : '';
  return `${e.scheduleId}: ${windows} × ${e.reports} report(s) = at least ${e.minimum} data requests per run${paged}`;
}
