/**
 * The summary's "Revised" section: earlier windows whose KPI totals moved when this run re-exported
 * them (lookback), for stakeholders who read last week's numbers — "Week of 9 Nov: likes revised from
 * 1,234,567 to 1,301,220, +5.4 %". Only totals that moved by more than the schedule's
 * `revisedThresholdPercent` are listed; a re-export that failed is named (its earlier export stands,
 * or — when the window was never exported — it is said to be missing). "Before" is what the last email
 * about the window said (`core/run/emailed.ts`), so each revision is told once.
 * The metrics are the report's KPIs (its `topBy` when it has none): what the email shows anyway.
 */

import type { ScheduleConfig } from '../config/schema';
import { type Manifest, type RestatedReport, totalNumber, type Window } from '../manifest';
import { own } from '../records';
import { daysBetween, formatDay, formatMonth, isWholeMonth } from './dates';
import { escapeHtml as e, formatNumber, oneLine } from './format';
import { SECTION_PAD } from './html-style';
import { type Labels, labeller } from './labels';
import type { SummarySection } from './section';
import { reportTitle } from './shape';

export type RevisedLine =
  | {
      readonly kind: 'revised';
      readonly label: string;
      readonly metric: string;
      readonly before: number;
      readonly after: number;
      /** (after − before) / before; null when before was 0. */
      readonly ratio: number | null;
    }
  /** The re-export failed; the window's earlier export is still there. */
  | { readonly kind: 'failed'; readonly label: string; readonly error: string }
  /** The re-export failed and the window was never exported: its data is missing, nothing stands. */
  | { readonly kind: 'missing'; readonly label: string; readonly error: string };

/** The section's lines, newest window first; empty when nothing moved beyond the threshold. */
export function revisedLines(
  manifest: Pick<Manifest, 'restated'>,
  schedule: Pick<ScheduleConfig, 'reports' | 'revisedThresholdPercent'>,
  labels?: Labels,
): RevisedLine[] {
  const lines: RevisedLine[] = [];
  const named = schedule.reports.length > 1;
  for (const w of manifest.restated ?? []) {
    for (const r of w.reports) {
      const config = schedule.reports.find((c) => c.id === r.reportId);
      const title = config ? reportTitle(config) : r.reportId;
      const label = `${windowLabel(w.window)}${named ? ` · ${title}` : ''}`;
      if (r.status === 'failed') {
        // rows.before is null when no export of the window ever succeeded: nothing "stands"
        const kind = r.rows.before === null ? 'missing' : 'failed';
        lines.push({ kind, label, error: r.error ?? 'no reason was recorded' });
        continue;
      }
      const name = labeller(labels, config?.labels);
      for (const metric of metricsOf(schedule, r)) {
        const moved = own(r.totals, metric);
        if (!moved || moved.before === null || moved.after === null || moved.before === moved.after) continue;
        const before = totalNumber(moved.before);
        const after = totalNumber(moved.after);
        const ratio = before === 0 ? null : (after - before) / Math.abs(before);
        if (ratio !== null && Math.abs(ratio) * 100 <= schedule.revisedThresholdPercent) continue;
        lines.push({ kind: 'revised', label, metric: name(metric).toLowerCase(), before, after, ratio });
      }
    }
  }
  return lines;
}

function metricsOf(schedule: Pick<ScheduleConfig, 'reports'>, r: RestatedReport): string[] {
  const summary = schedule.reports.find((c) => c.id === r.reportId)?.summary;
  if (!summary) return [];
  return summary.kpis.length > 0 ? summary.kpis : summary.topBy ? [summary.topBy] : [];
}

/** `9 Nov`, `Week of 9 Nov`, `November 2026`, or `1 Nov – 20 Nov`. */
export function windowLabel(w: Window): string {
  if (w.start === w.end) return formatDay(w.start);
  if (daysBetween(w.start, w.end) === 6) return `Week of ${formatDay(w.start)}`;
  if (isWholeMonth(w.start, w.end)) return formatMonth(w.start);
  return `${formatDay(w.start)} – ${formatDay(w.end)}`;
}

/** The sentence of one line (plain text; the HTML escapes it). */
export function describeRevision(line: RevisedLine): string {
  if (line.kind === 'failed') {
    return `${line.label}: could not be re-exported, the earlier export stands (${oneLine(line.error)})`;
  }
  if (line.kind === 'missing') {
    return `${line.label}: still missing — it has never been exported, and this run could not export it either (${oneLine(line.error)})`;
  }
  const change =
    line.ratio === null ? '' : `, ${line.ratio > 0 ? '+' : '-'}${Math.abs(line.ratio * 100).toFixed(1)} %`;
  return `${line.label}: ${line.metric} revised from ${formatNumber(line.before)} to ${formatNumber(line.after)}${change}`;
}

/** The text part's section (nothing when there are no lines). */
export function revisedText(lines: readonly RevisedLine[]): string[] {
  if (lines.length === 0) return [];
  return [
    'Revised (earlier windows re-exported by this run):',
    ...lines.map((l) => `  ${describeRevision(l)}`),
    '',
  ];
}

/** The HTML part's section, below the overview (nothing when there are no lines). */
export function revisedHtml(lines: readonly RevisedLine[]): string {
  if (lines.length === 0) return '';
  const items = lines
    .map(
      (l) =>
        `<li style="margin:2px 0${l.kind === 'revised' ? '' : ';color:#b91c1c'}">${e(describeRevision(l))}</li>`,
    )
    .join('');
  return `<div data-role="revised" style="margin-top:12px;padding:10px 12px;background:#eff6ff;border:1px solid #bfdbfe;border-radius:6px;font-size:13px"><strong>Revised</strong> — earlier windows re-exported by this run<ul style="margin:6px 0 0 0;padding-left:18px">${items}</ul></div>`;
}

/** The "Revised" section of the summary (both audiences), after the reports; absent when empty. */
export const revisedSection: SummarySection = {
  id: 'revised',
  html: ({ input }) => {
    const lines = revisedLines(input.manifest, input.schedule, input.config.email?.labels);
    return lines.length > 0 ? `<tr><td style="${SECTION_PAD}">${revisedHtml(lines)}</td></tr>` : null;
  },
  text: ({ input }) => {
    const lines = revisedLines(input.manifest, input.schedule, input.config.email?.labels);
    return lines.length > 0 ? revisedText(lines) : null;
  },
};
