/**
 * The HTML part: table layout and inline styles only (what mail clients render), no scripts, no images,
 * no external or embedded CSS, no forms. Every dynamic value goes through `e()` (HTML-escaping),
 * including our own, so nothing from the API can become markup. Stakeholders get the numbers;
 * operators get the same plus the technical detail (errors with codes, warnings, files, run ids).
 */
import { escapeHtml as e } from './format';
import { runDetailsHtml } from './html-ops';
import { reportHtml } from './html-report';
import { FONT, MUTED, SECTION_PAD, STATUS, TABLE, WRAP } from './html-style';
import type { Audience, SummaryView } from './model';
import type { FilesNote } from './text';
import { statusLine, warningsLine } from './wording';

/** Renders the complete HTML document of the summary for one audience. `extra` are added sections. */
export function renderHtml(
  view: SummaryView,
  files: FilesNote,
  audience: Audience = 'stakeholders',
  extra = '',
): string {
  const ops = audience === 'operators';
  const warned = ops ? warningsLine(view.reports) : null;
  const s = warned !== null && view.status === 'succeeded' ? STATUS.warned : STATUS[view.status];
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light"><title>${e(view.title)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;${FONT};color:#111827;${WRAP}">
<table ${TABLE} style="background:#f3f4f6"><tr><td align="center" style="padding:16px 8px">
<table ${TABLE} style="max-width:640px;width:100%;background:#ffffff;border:1px solid #e5e7eb;border-radius:8px">
<tr><td style="padding:20px 16px 4px 16px">
<div style="font-size:12px;letter-spacing:.06em;text-transform:uppercase;${MUTED}">${ops ? 'Run details for operators' : 'Report summary'}</div>
<div style="font-size:22px;line-height:1.25;font-weight:700;margin-top:4px">${e(view.title)}</div>
<div style="font-size:14px;${MUTED};margin-top:4px">${e(view.period)}${view.comparedWith ? ` · compared with ${e(view.comparedWith)}` : ''}</div>
</td></tr>
<tr><td style="padding:12px 16px">
<table ${TABLE} data-role="status-banner" style="background:${s.bg};border:1px solid ${s.border};border-radius:6px"><tr>
<td style="padding:10px 14px;color:${s.fg};font-size:15px"><strong>${s.label}</strong> · ${e(statusLine(view))}${warned === null ? '' : `<br><span style="font-size:13px">${e(warned)}</span>`}</td>
</tr></table>${attachmentsHtml(files)}${overviewHtml(view)}</td></tr>
${view.reports.map((r) => reportHtml(r, view, audience)).join('\n')}
${extra}
${ops ? runDetailsHtml(view) : ''}
<tr><td style="${SECTION_PAD};font-size:12px;${MUTED};border-top:1px solid #f3f4f6">${footer(view, audience)}</td></tr>
</table></td></tr></table>
</body></html>
`;
}

function footer(view: SummaryView, audience: Audience): string {
  const compare = view.comparedWith
    ? `Changes compare ${e(view.period)} with ${e(view.comparedWith)}.`
    : 'This is the first run: there is no earlier one to compare with.';
  if (audience === 'operators') return `${compare} Sent automatically by report-exporter.`;
  return `${compare} Sent automatically by report-exporter${view.operatorsTold ? '; questions go to the data team' : ''}.`;
}

/** One line per report under the banner: the run at a glance before the details. */
function overviewHtml(view: SummaryView): string {
  if (view.reports.length < 2) return '';
  const rows = view.reports
    .map((r) => {
      const ok = r.status === 'succeeded';
      const mark = ok ? '<span style="color:#15803d">✓</span>' : '<span style="color:#b91c1c">✗</span>';
      const what = ok ? e(r.rowsText) : '<span style="color:#b91c1c">not updated</span>';
      return `<tr><td valign="top" style="padding:3px 8px 3px 0;width:16px">${mark}</td><td style="padding:3px 8px 3px 0;font-weight:600">${e(r.title)}</td><td align="right" valign="top" style="padding:3px 0;white-space:nowrap;${MUTED}">${what}</td></tr>`;
    })
    .join('');
  return `<table ${TABLE} data-role="overview" style="margin-top:12px;font-size:13px">${rows}</table>`;
}

/** The attachment line under the banner: what is attached, or why nothing is. */
function attachmentsHtml(files: FilesNote): string {
  const style = `font-size:13px;${MUTED};margin-top:8px`;
  if (files.attached.length > 0) {
    // readers need to know every row is there; the file names are the reports' (operators see each
    // report's files below), and a list of them took five lines on a phone
    return `<div data-role="attachments" style="${style}"><strong style="color:#374151">Attached:</strong> every row, as ${files.attached.length} CSV ${files.attached.length === 1 ? 'file' : 'files'}</div>`;
  }
  if (files.reason) {
    return `<div data-role="attachments" style="${style}"><strong style="color:#374151">No attachments.</strong> ${e(files.reason)}</div>`;
  }
  return '';
}
