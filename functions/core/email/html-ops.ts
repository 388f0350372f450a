/**
 * What only operators see in the HTML part: per report its id, route, pages, the error with its code,
 * the warnings, and every file location; per run the ids and times. Locations may be long: they wrap.
 */
import { escapeHtml as e, formatBytes, formatNumber } from './format';
import { MUTED, SECTION_PAD, TABLE, WRAP } from './html-style';
import type { ReportView, SummaryView } from './model';
import { warningText } from './text-ops';
import { plural } from './wording';

const CODE = `font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;color:#1f2937;${WRAP}`;

export function reportDetailsHtml(report: ReportView): string {
  const lines: string[] = [
    `<div style="font-size:12px;${MUTED}">Report <span style="${CODE}">${e(report.reportId)}</span> · route <span style="${CODE}">${e(report.route)}</span> · ${e(formatNumber(report.rowCount))} ${plural(report.rowCount, 'row')} from ${e(formatNumber(report.pages))} ${plural(report.pages, 'page')}</div>`,
  ];
  if (report.status === 'failed') {
    lines.push(
      `<div data-role="error" style="margin-top:6px;font-size:13px;color:#7f1d1d"><strong>Error ${e(report.errorCode ?? 'UNKNOWN')}:</strong> <span style="${WRAP}">${e(report.error ?? 'no reason was recorded')}</span></div>`,
    );
  }
  if (report.warnings.length > 0) {
    const items = report.warnings.map((w) => `<li style="margin:2px 0">${e(warningText(w))}</li>`).join('');
    lines.push(
      `<div data-role="warnings" style="margin-top:6px;font-size:13px;color:#92400e"><strong>Warnings</strong><ul style="margin:2px 0 0 0;padding-left:18px">${items}</ul></div>`,
    );
  }
  if (report.files.length > 0) {
    const rows = report.files
      .map(
        (f) =>
          `<tr><td valign="top" style="padding:2px 8px 2px 0;font-weight:600;color:#374151;white-space:nowrap">${f.format.toUpperCase()}</td><td style="padding:2px 8px 2px 0"><span style="${CODE}">${e(f.location)}</span></td><td valign="top" align="right" style="padding:2px 0;${MUTED};white-space:nowrap">${e(formatBytes(f.bytes))}</td></tr>`,
      )
      .join('');
    lines.push(`<table ${TABLE} data-role="files" style="margin-top:6px;font-size:12px">${rows}</table>`);
  }
  return `<div data-role="technical" style="margin-top:10px;padding:8px 10px;background:#f9fafb;border:1px dashed #d1d5db;border-radius:6px">${lines.join('')}</div>`;
}

export function runDetailsHtml(view: SummaryView): string {
  const row = (k: string, v: string) =>
    `<tr><td valign="top" style="padding:2px 8px 2px 0;${MUTED};white-space:nowrap">${e(k)}</td><td style="padding:2px 0"><span style="${CODE}">${e(v)}</span></td></tr>`;
  return `<tr><td data-role="run-details" style="${SECTION_PAD};border-top:1px solid #f3f4f6"><div style="font-size:15px;font-weight:700;margin-bottom:4px">Run</div>
<table ${TABLE} style="font-size:12px">${row('Run id', view.runId)}${row('Schedule', view.scheduleId)}${row('Window', `${view.window.start} – ${view.window.end} (${view.window.timezone})`)}${row('Scheduled', view.scheduledTime)}${row('Started', view.startedAt)}${row('Finished', view.finishedAt)}</table></td></tr>`;
}
