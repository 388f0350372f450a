/** A report's config + the run's window → the API request. */
import type { ReportRequest } from '../api/types';
import type { ReportConfig } from '../config/schema';
import type { Window } from '../manifest';

export function reportRequest(report: ReportConfig, window: Window): ReportRequest {
  const f = report.filters;
  return {
    route: report.route,
    ...(report.metrics ? { metrics: report.metrics } : {}),
    startDate: window.start,
    endDate: window.end,
    filters: {
      ...(f.platform !== undefined ? { platform: f.platform } : {}),
      ...(f.contentType !== undefined ? { contentType: f.contentType } : {}),
      ...(f.dateBasis !== undefined ? { dateBasis: f.dateBasis } : {}),
      ...(f.instanceIds.length > 0 ? { instanceIds: f.instanceIds } : {}),
      ...(f.campaignIds.length > 0 ? { campaignIds: f.campaignIds } : {}),
    },
    params: report.params,
  };
}
