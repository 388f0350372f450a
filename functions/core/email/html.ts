/**
 * The HTML part: table layout and inline styles only (what mail clients render), no scripts, no remote
 * images, no external CSS, no forms. Every dynamic value goes through `e()` (HTML-escaping), including
 * our own, so nothing from the API can become markup.
 */
import { arrow } from './deltas';
import { escapeHtml as e, formatBytes, formatNumber } from './format';
import type { ReportView, SummaryView, TopTable } from './model';
import type { FilesNote } from './text';
import { describeDelta, PER_ROW, plural, statusLine } from './wording';

const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const MUTED = 'color:#6b7280';
const STATUS = {
  succeeded: { fg: '#166534', bg: '#dcfce7', border: '#86efac', label: 'SUCCEEDED' },
  partial: { fg: '#92400e', bg: '#fef3c7', border: '#fcd34d', label: 'PARTIAL' },
  failed: { fg: '#991b1b', bg: '#fee2e2', border: '#fca5a5', label: 'FAILED' },
} as const;
const KPI_PER_LINE = 3;

/** Renders the complete HTML document of the summary. */
export function renderHtml(view: SummaryView, files: FilesNote): string {
  const s = STATUS[view.status];
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(view.title)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;${FONT};color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="680" cellpadding="0" cellspacing="0" style="max-width:680px;width:100%;background:#ffffff;border:1px solid #e5e7eb;border-radius:8px">
<tr><td style="padding:24px 28px 8px 28px">
<div style="font-size:12px;letter-spacing:.06em;text-transform:uppercase;${MUTED}">Report export summary</div>
<div style="font-size:22px;font-weight:700;margin-top:4px">${e(view.title)}</div>
<div style="font-size:14px;${MUTED};margin-top:4px">${e(view.window.start)} – ${e(view.window.end)} · ${e(view.window.timezone)}</div>
</td></tr>
<tr><td style="padding:12px 28px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" data-role="status-banner" style="background:${s.bg};border:1px solid ${s.border};border-radius:6px"><tr>
<td style="padding:12px 16px;color:${s.fg};font-size:15px"><strong>${s.label}</strong> · ${e(statusLine(view))}</td>
</tr></table>${filesHtml(files)}${overviewHtml(view)}</td></tr>
${view.reports.map(reportHtml).join('\n')}
<tr><td style="padding:12px 28px 24px 28px;font-size:12px;${MUTED};border-top:1px solid #f3f4f6">
Run ${e(view.runId)} of schedule ${e(view.scheduleId)}, finished ${e(view.finishedAt)}.${view.hasPreviousRun ? ' Changes are against the previous run.' : ' This is the first run: no previous run to compare with.'}
</td></tr>
</table></td></tr></table>
</body></html>
`;
}

/** One line per report under the banner: the run at a glance before the details. */
function overviewHtml(view: SummaryView): string {
  if (view.reports.length < 2) return '';
  const rows = view.reports
    .map((r) => {
      const ok = r.status === 'succeeded';
      const mark = ok ? '<span style="color:#15803d">✓</span>' : '<span style="color:#b91c1c">✗</span>';
      const what = ok
        ? `${e(formatNumber(r.rowCount))} ${plural(r.rowCount, 'row')}`
        : '<span style="color:#b91c1c">failed</span>';
      return `<tr><td style="padding:3px 8px 3px 0;width:16px">${mark}</td><td style="padding:3px 12px 3px 0;font-weight:600">${e(r.reportId)}</td><td style="padding:3px 12px 3px 0;${MUTED}">${e(r.route)}</td><td align="right" style="padding:3px 0">${what}</td></tr>`;
    })
    .join('');
  return `<table role="presentation" data-role="overview" width="100%" cellpadding="0" cellspacing="0" style="margin-top:12px;font-size:13px;border-top:1px solid #f3f4f6">${rows}</table>`;
}

function reportHtml(report: ReportView): string {
  const failed = report.status === 'failed';
  const chip = failed
    ? `<span style="background:#fee2e2;color:#991b1b;border-radius:10px;padding:2px 8px;font-size:12px">failed</span>`
    : `<span style="background:#dcfce7;color:#166534;border-radius:10px;padding:2px 8px;font-size:12px">${e(formatNumber(report.rowCount))} ${plural(report.rowCount, 'row')} · ${e(formatNumber(report.pages))} ${plural(report.pages, 'page')}</span>`;
  const head = `<div style="font-size:17px;font-weight:700">${e(report.reportId)} ${chip}</div>
<div style="font-size:12px;${MUTED};margin:2px 0 10px 0">${e(report.route)}</div>`;
  const body = failed
    ? `<div data-role="failure" style="background:#fef2f2;border-left:4px solid #dc2626;padding:10px 12px;font-size:14px;color:#7f1d1d"><strong>Not exported.</strong> ${e(report.error ?? 'No reason was recorded.')}</div>`
    : [warningsHtml(report), kpisHtml(report), topHtml(report.top), locationsHtml(report)].join('\n');
  return `<tr><td data-report="${e(report.reportId)}" style="padding:16px 28px;border-top:1px solid #f3f4f6">${head}${body}</td></tr>`;
}

function warningsHtml(report: ReportView): string {
  if (report.warnings.length === 0) return '';
  const items = report.warnings.map((w) => `<li style="margin:4px 0">${e(w)}</li>`).join('');
  return `<div data-role="warnings" style="background:#fffbeb;border-left:4px solid #d97706;padding:10px 12px;font-size:13px;color:#78350f;margin-bottom:10px"><strong>Data may be incomplete.</strong><ul style="margin:6px 0 0 0;padding-left:18px">${items}</ul></div>`;
}

function kpisHtml(report: ReportView): string {
  if (report.kpis.length === 0) return '';
  const cells = report.kpis.map((kpi) => {
    const label = `<div style="font-size:12px;${MUTED}">${e(kpi.metric)}</div>`;
    if (kpi.kind === 'per-row') {
      return `${label}<div style="font-size:14px;color:#374151;margin-top:6px">${e(PER_ROW)}</div>`;
    }
    const a = arrow(kpi.delta);
    const color = a === '▲' ? '#15803d' : a === '▼' ? '#b91c1c' : '#6b7280';
    return `${label}<div style="font-size:22px;font-weight:700;margin-top:2px">${e(formatNumber(kpi.value, kpi.type))}</div>
<div style="font-size:12px;color:${color};margin-top:2px">${e(describeDelta(kpi.delta, kpi.type))}</div>`;
  });
  const lines: string[] = [];
  for (let i = 0; i < cells.length; i += KPI_PER_LINE) {
    const line = cells.slice(i, i + KPI_PER_LINE);
    while (line.length < KPI_PER_LINE) line.push('');
    lines.push(
      `<tr>${line.map((c) => (c ? `<td width="33%" valign="top" style="padding:10px 12px;background:#f9fafb;border:1px solid #e5e7eb;border-radius:6px">${c}</td>` : '<td width="33%"></td>')).join('<td width="8"></td>')}</tr>`,
    );
  }
  return `<table role="presentation" data-role="kpis" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:separate;border-spacing:0 8px">${lines.join('')}</table>`;
}

function topHtml(top: TopTable | null): string {
  if (!top) return '';
  const th = top.columns
    .map(
      (c) =>
        `<th align="${c.numeric ? 'right' : 'left'}" style="padding:6px 8px;border-bottom:2px solid #e5e7eb;font-size:12px;${MUTED};font-weight:600">${wrappable(e(c.name))}</th>`,
    )
    .join('');
  const rows = top.rows
    .map((row, i) => {
      const bg = i % 2 === 0 ? '#ffffff' : '#f9fafb';
      const tds = row
        .map(
          (cell, j) =>
            `<td align="${top.columns[j]?.numeric ? 'right' : 'left'}" style="padding:6px 8px;border-bottom:1px solid #f3f4f6">${e(cell)}</td>`,
        )
        .join('');
      return `<tr style="background:${bg}"><td style="padding:6px 8px;border-bottom:1px solid #f3f4f6;${MUTED}">${i + 1}</td>${tds}</tr>`;
    })
    .join('\n');
  return `<div style="font-size:13px;font-weight:600;margin:10px 0 4px 0">Top ${top.rows.length} by ${e(top.topBy)}</div>
<table data-role="top" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;font-size:13px">
<tr><th style="padding:6px 8px;border-bottom:2px solid #e5e7eb;font-size:12px;${MUTED}">#</th>${th}</tr>
${rows}</table>`;
}

function locationsHtml(report: ReportView): string {
  if (report.files.length === 0) return '';
  const rows = report.files
    .map(
      (
        f,
      ) => `<tr><td valign="top" style="padding:2px 10px 2px 0;font-weight:600;color:#374151;white-space:nowrap">${f.format.toUpperCase()}</td>
<td style="padding:2px 10px 2px 0"><code style="font-size:12px;color:#1f2937;word-break:break-all">${e(f.location)}</code></td>
<td valign="top" align="right" style="padding:2px 0;${MUTED};white-space:nowrap">${e(formatBytes(f.bytes))}</td></tr>`,
    )
    .join('');
  return `<div style="font-size:13px;font-weight:600;margin:12px 0 2px 0">Files</div>
<table role="presentation" data-role="files" cellpadding="0" cellspacing="0" style="font-size:12px">${rows}</table>`;
}

/** The attachment line under the banner: what is attached, or why nothing is. */
function filesHtml(files: FilesNote): string {
  const style = `font-size:13px;${MUTED};margin-top:8px`;
  if (files.attached.length > 0) {
    const list = files.attached.map((f) => `<code style="color:#374151">${e(f)}</code>`).join(', ');
    return `<div data-role="attachments" style="${style}"><strong style="color:#374151">Attached CSV:</strong> ${list}</div>`;
  }
  if (files.reason) {
    return `<div data-role="attachments" style="${style}"><strong style="color:#374151">No attachments.</strong> ${e(files.reason)}</div>`;
  }
  return '';
}

/** Lets long camelCase metric names wrap in narrow columns; runs on escaped text (entities are lowercase). */
const wrappable = (escaped: string): string => escaped.replace(/([a-z])([A-Z])/g, '$1<wbr>$2');
