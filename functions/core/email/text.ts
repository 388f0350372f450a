/** The plain-text part: the same information as the HTML for the same audience, line by line. */
import { oneLine } from './format';
import type { Audience, KpiView, ReportView, SummaryView } from './model';
import { reportDetailsText, runDetailsText } from './text-ops';
import { failureSentence, statusLine, warningsLine } from './wording';

export interface FilesNote {
  readonly attached: readonly string[];
  readonly reason: string | null;
}

/** Renders the text part. Values are one-lined so a hostile name cannot fake extra lines. */
export function renderText(
  view: SummaryView,
  files: FilesNote,
  audience: Audience = 'stakeholders',
  extra: readonly string[] = [],
): string {
  const ops = audience === 'operators';
  const out: string[] = [
    oneLine(view.title) + (ops ? ' — run details for operators' : ''),
    `${view.period}${view.comparedWith ? `, compared with ${view.comparedWith}` : ''} (${view.window.timezone})`,
    statusLine(view),
    ...(ops ? [warningsLine(view.reports)].filter((l) => l !== null) : []),
    ...attachmentsText(files),
    '',
  ];
  if (view.reports.length > 1) {
    for (const r of view.reports) {
      const what = r.status === 'succeeded' ? r.rowsText : 'not updated';
      out.push(`  ${r.status === 'succeeded' ? '✓' : '✗'} ${oneLine(r.title)}: ${what}`);
    }
    out.push('');
  }
  for (const report of view.reports) {
    out.push(...reportText(report, view, audience));
    if (ops) out.push(...reportDetailsText(report));
    out.push('');
  }
  out.push(...extra);
  if (ops) out.push(...runDetailsText(view), '');
  out.push(
    view.comparedWith
      ? `Changes compare ${view.period} with ${view.comparedWith}. Sent automatically by report-exporter.`
      : 'First run: there is no earlier one to compare with. Sent automatically by report-exporter.',
  );
  return `${out.join('\n')}\n`;
}

const kpiLine = (k: KpiView) =>
  `  ${oneLine(k.label)}: ${k.value ?? ''}${k.value === null ? k.note : `  ${k.note}`}`;

function reportText(report: ReportView, view: SummaryView, audience: Audience): string[] {
  const lines = [`== ${oneLine(report.title)}`, oneLine(report.coverage)];
  if (report.status === 'failed') {
    lines.push(
      audience === 'operators'
        ? 'Not exported (see the error below).'
        : failureSentence(oneLine(report.title), view.period, view.operatorsTold),
    );
    return lines;
  }
  if (report.empty) {
    lines.push(`${report.empty}.`);
    return lines;
  }
  if (report.count) lines.push(kpiLine(report.count));
  for (const kpi of report.kpis) lines.push(kpiLine(kpi));
  if (report.trend) {
    const t = report.trend;
    lines.push(`${oneLine(t.heading)}:`);
    for (const b of t.bars) lines.push(`  ${b.when}: ${b.value}`);
    const foot = [t.peak, t.total].filter((x) => x !== null).join(' · ');
    if (foot) lines.push(`  ${foot}`);
  }
  if (report.ranked) {
    lines.push(`${oneLine(report.ranked.heading)}:`);
    report.ranked.rows.forEach((r, i) => {
      const rest = [
        ...(r.category ? [r.category] : []),
        ...r.details.map((d) => `${oneLine(d.label)} ${d.value}`),
      ];
      lines.push(`  ${i + 1}. ${r.name} — ${r.value}${rest.length ? ` (${rest.join(' · ')})` : ''}`);
    });
  }
  if (!report.count && report.kpis.length === 0 && !report.trend && !report.ranked) {
    lines.push(`${report.rowsText} in this period.`);
  }
  return lines;
}

function attachmentsText(files: FilesNote): string[] {
  if (files.attached.length > 0) return [`Attached: ${files.attached.join(', ')}`];
  return files.reason ? [`Attachments: ${files.reason}`] : [];
}
