/**
 * The manifest entry of a report that failed: the one builder for the export step (which adds what
 * it counted before failing) and the Finalize payload mapping (a step that threw, or a task whose
 * result never arrived). A failed entry lists no files and no totals, only why.
 */
import type { ManifestReport } from '../manifest';

export function failedEntry(
  reportId: string,
  route: string,
  error: string,
  extra: Partial<
    Pick<ManifestReport, 'rowCount' | 'pages' | 'columns' | 'errorCode' | 'warnings' | 'validMetrics'>
  > = {},
): ManifestReport {
  return {
    reportId,
    route,
    status: 'failed',
    rowCount: 0,
    pages: 0,
    columns: [],
    totals: {},
    error,
    files: [],
    ...extra,
  };
}
