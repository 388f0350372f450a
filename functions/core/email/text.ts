/** The plain-text part: the same information as the HTML, for clients that show text only. */
import { formatBytes, formatNumber, oneLine } from './format';
import type { ReportView, SummaryView } from './model';
import { describeDelta, PER_ROW, plural, statusLine } from './wording';

export interface FilesNote {
  readonly attached: readonly string[];
  readonly reason: string | null;
}

/** Renders the text part. Values are one-lined so a hostile name cannot fake extra lines. */
export function renderText(view: SummaryView, files: FilesNote): string {
  const out: string[] = [
    `${oneLine(view.title)}`,
    `Window: ${view.window.start} – ${view.window.end} (${view.window.timezone})`,
    `Status: ${view.status.toUpperCase()} — ${statusLine(view)}`,
    ...attachmentsText(files),
    '',
  ];
  if (view.reports.length > 1) {
    for (const r of view.reports) {
      const what =
        r.status === 'succeeded' ? `${formatNumber(r.rowCount)} ${plural(r.rowCount, 'row')}` : 'FAILED';
      out.push(`  ${r.status === 'succeeded' ? '✓' : '✗'} ${r.reportId}: ${what}`);
    }
    out.push('');
  }
  for (const report of view.reports) out.push(...reportText(report), '');
  out.push(`Run ${oneLine(view.runId)} of schedule ${view.scheduleId}, finished ${view.finishedAt}.`);
  return `${out.join('\n')}\n`;
}

function reportText(report: ReportView): string[] {
  const head = `== ${report.reportId} (${report.route}) — ${report.status === 'succeeded' ? 'succeeded' : 'FAILED'}`;
  if (report.status === 'failed') {
    return [head, `Reason: ${oneLine(report.error ?? 'no reason was recorded')}`];
  }
  const lines = [
    head,
    `${formatNumber(report.rowCount)} ${plural(report.rowCount, 'row')} from ${formatNumber(report.pages)} ${plural(report.pages, 'page')}`,
    ...report.warnings.map((w) => `WARNING (data may be incomplete): ${oneLine(w)}`),
  ];
  if (report.kpis.length > 0) lines.push('KPIs:');
  for (const kpi of report.kpis) {
    if (kpi.kind === 'per-row') lines.push(`  ${kpi.metric}: ${PER_ROW}`);
    else
      lines.push(
        `  ${kpi.metric}: ${formatNumber(kpi.value, kpi.type)}  ${describeDelta(kpi.delta, kpi.type)}`,
      );
  }
  if (report.top) {
    lines.push(`Top ${report.top.rows.length} by ${report.top.topBy}:`);
    const names = report.top.columns.map((c) => c.name);
    report.top.rows.forEach((row, i) => {
      lines.push(`  ${i + 1}. ${row.map((cell, j) => `${names[j]}=${cell}`).join(' | ')}`);
    });
  }
  if (report.files.length > 0) lines.push('Files:');
  for (const f of report.files) {
    lines.push(
      `  ${f.format.toUpperCase()} ${oneLine(f.location)} (${formatBytes(f.bytes)}, ${formatNumber(f.rows)} rows)`,
    );
  }
  return lines;
}

function attachmentsText(files: FilesNote): string[] {
  if (files.attached.length > 0) return [`Attached: ${files.attached.join(', ')}`];
  return files.reason ? [`Attachments: ${files.reason}`] : [];
}
