/** One report's block in the HTML part: title, what it covers, then the picture that fits its shape. */
import { escapeHtml as e } from './format';
import { rankedHtml, trendHtml } from './html-charts';
import { reportDetailsHtml } from './html-ops';
import { arrowColor, MUTED, SECTION_PAD, TABLE } from './html-style';
import type { Audience, KpiView, ReportView, SummaryView } from './model';
import { failureSentence } from './wording';

export function reportHtml(report: ReportView, view: SummaryView, audience: Audience): string {
  const failed = report.status === 'failed';
  const head = `<div style="font-size:17px;font-weight:700">${e(report.title)}</div>
<div data-role="coverage" style="font-size:13px;${MUTED};margin:2px 0 8px 0">${e(report.coverage)}</div>`;
  const body = failed
    ? failureHtml(report, view, audience)
    : report.empty
      ? `<div data-role="empty" style="font-size:14px">${e(report.empty)}.</div>`
      : [
          cardsHtml(report.count ? [report.count] : report.kpis),
          report.trend ? trendHtml(report.trend) : '',
          report.ranked ? rankedHtml(report.ranked) : '',
          !report.count && report.kpis.length === 0 && !report.trend && !report.ranked
            ? `<div style="font-size:14px">${e(report.rowsText)} in this period.</div>`
            : '',
        ].join('\n');
  const details = audience === 'operators' ? reportDetailsHtml(report) : '';
  return `<tr><td data-report="${e(report.reportId)}" style="${SECTION_PAD};border-top:1px solid #f3f4f6">${head}${body}${details}</td></tr>`;
}

/** Stakeholders: a plain sentence. Operators: the error, its code, in the technical block below. */
function failureHtml(report: ReportView, view: SummaryView, audience: Audience): string {
  const text =
    audience === 'operators'
      ? `<strong>Not exported.</strong> See the error below.`
      : e(failureSentence(report.title, view.period, view.operatorsTold));
  return `<div data-role="failure" style="background:#fef2f2;border-left:4px solid #dc2626;padding:10px 12px;font-size:14px;color:#7f1d1d">${text}</div>`;
}

/**
 * KPI cards as inline blocks: three side by side on a wide screen, two or one on a phone, without
 * media queries. A value never forces the page wider: it may wrap.
 */
export function cardsHtml(kpis: readonly KpiView[]): string {
  if (kpis.length === 0) return '';
  const cards = kpis.map((kpi) => {
    const value =
      kpi.value === null
        ? `<div style="font-size:14px;color:#374151;margin-top:6px">${e(kpi.note)}</div>`
        : `<div style="font-size:20px;font-weight:700;margin-top:2px">${e(kpi.value)}</div>
<div style="font-size:12px;color:${arrowColor(kpi.arrow)};margin-top:2px">${noteHtml(kpi.note)}</div>`;
    return `<div data-role="kpi" style="display:inline-block;vertical-align:top;box-sizing:border-box;width:46%;min-width:140px;max-width:192px;margin:0 6px 6px 0;padding:8px 10px;background:#f9fafb;border:1px solid #e5e7eb;border-radius:6px"><div style="font-size:12px;${MUTED}">${e(kpi.label)}</div>${value}</div>`;
  });
  return `<table ${TABLE} data-role="kpis"><tr><td style="font-size:0">${cards.join('')}</td></tr></table>`;
}

/**
 * A change line whose compared window (`vs 9–15 Nov`, `vs 1–30 Sep`) never breaks inside: the line may
 * wrap before "vs", not inside the date.
 */
export function noteHtml(note: string): string {
  const at = note.lastIndexOf(' vs ');
  if (at < 0) return e(note);
  return `${e(note.slice(0, at))} <span style="white-space:nowrap">${e(note.slice(at + 1))}</span>`;
}
