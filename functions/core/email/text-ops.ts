/** The operators' technical lines of the text part (and the shared wording of a warning). */
import type { ReportWarning } from '../manifest';
import { formatBytes, formatNumber, oneLine } from './format';
import type { ReportView, SummaryView } from './model';
import { plural } from './wording';

/** `MISSING_METRIC (column paidImpressions, 120 rows): message`. */
export function warningText(w: ReportWarning): string {
  const where = [
    ...(w.column !== undefined ? [`column ${w.column}`] : []),
    ...(w.count !== undefined ? [`count ${formatNumber(w.count)}`] : []),
  ].join(', ');
  return oneLine(`${w.code}${where ? ` (${where})` : ''}: ${w.message}`);
}

export function reportDetailsText(report: ReportView): string[] {
  const lines = [
    `  Report ${report.reportId}, route ${report.route}: ${formatNumber(report.rowCount)} ${plural(report.rowCount, 'row')} from ${formatNumber(report.pages)} ${plural(report.pages, 'page')}`,
  ];
  if (report.status === 'failed') {
    lines.push(
      `  Error ${report.errorCode ?? 'UNKNOWN'}: ${oneLine(report.error ?? 'no reason was recorded')}`,
    );
  }
  for (const w of report.warnings) lines.push(`  Warning ${warningText(w)}`);
  for (const f of report.files) {
    lines.push(
      `  ${f.format.toUpperCase()} ${oneLine(f.location)} (${formatBytes(f.bytes)}, ${formatNumber(f.rows)} rows)`,
    );
  }
  return lines;
}

export function runDetailsText(view: SummaryView): string[] {
  return [
    `Run ${oneLine(view.runId)} of schedule ${view.scheduleId}`,
    `Window ${view.window.start} – ${view.window.end} (${view.window.timezone}); scheduled ${view.scheduledTime}, started ${view.startedAt}, finished ${view.finishedAt}`,
  ];
}
