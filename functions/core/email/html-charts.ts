/**
 * The two pictures of the HTML part, built from table cells (no images, no scripts, no CSS classes),
 * so Gmail, Outlook and Apple Mail show them as they are: the trend's bars and the stacked top list.
 */
import { escapeHtml as e } from './format';
import { BAR, MUTED, TABLE } from './html-style';
import type { RankedList } from './ranked';
import type { TrendView } from './trend-view';

const CHART_PX = 88;

/** Bars bottom-aligned in one row of cells, a date axis under them, then the peak and the total. */
export function trendHtml(trend: TrendView): string {
  const width = `${(100 / Math.max(1, trend.bars.length)).toFixed(3)}%`;
  const cells = trend.bars
    .map((b) => {
      const title = `${b.when}: ${b.value}`;
      if (b.height === null)
        return `<td width="${width}" valign="bottom" title="${e(title)}" style="padding:0 1px"></td>`;
      const px = Math.max(2, Math.round(b.height * CHART_PX));
      return `<td width="${width}" valign="bottom" title="${e(title)}" style="padding:0 1px"><table ${TABLE}><tr><td height="${px}" bgcolor="${BAR}" style="height:${px}px;background:${BAR};font-size:0;line-height:0">&nbsp;</td></tr></table></td>`;
    })
    .join('');
  const foot = [trend.peak, trend.total]
    .filter((x): x is string => x !== null)
    .map(e)
    .join(' · ');
  return `<div style="font-size:13px;font-weight:600;margin:8px 0 6px 0">${e(trend.heading)}</div>
<table ${TABLE} data-role="trend"><tr>
<td valign="top" style="width:1%;white-space:nowrap;padding-right:6px;font-size:11px;${MUTED}"><table role="presentation" cellpadding="0" cellspacing="0" border="0" data-role="scale"><tr><td valign="top" style="height:${CHART_PX / 2}px">${e(trend.scaleMax)}</td></tr><tr><td valign="bottom" align="right" style="height:${CHART_PX / 2}px">0</td></tr></table></td>
<td valign="bottom"><table ${TABLE} style="border-bottom:1px solid #d1d5db;border-left:1px solid #d1d5db;border-top:1px dashed #e5e7eb"><tr style="height:${CHART_PX}px">${cells}</tr></table>
<table ${TABLE} style="font-size:12px;${MUTED}"><tr><td style="padding-top:2px">${e(trend.first)}</td><td align="right" style="padding-top:2px">${e(trend.last)}</td></tr></table></td>
</tr></table>
${foot ? `<div style="font-size:13px;color:#374151;margin-top:4px">${foot}</div>` : ''}`;
}

/** Rank, name (category, then the other metrics on a wrapping line), and the ranking value right. */
export function rankedHtml(list: RankedList): string {
  const rows = list.rows
    .map((r, i) => {
      const sub = [
        ...(r.category ? [e(r.category)] : []),
        ...r.details.map((d) => `${e(d.label)} <span style="color:#374151">${e(d.value)}</span>`),
      ].join(' · ');
      return `<tr><td valign="top" style="padding:5px 8px 5px 0;width:20px;${MUTED};font-size:13px;border-bottom:1px solid #f3f4f6">${i + 1}</td>
<td valign="top" style="padding:5px 8px 5px 0;border-bottom:1px solid #f3f4f6"><div style="font-size:14px;font-weight:600">${e(r.name)}</div>${sub ? `<div style="font-size:12px;${MUTED};margin-top:2px">${sub}</div>` : ''}</td>
<td valign="top" align="right" style="padding:5px 0;font-size:14px;font-weight:600;white-space:nowrap;border-bottom:1px solid #f3f4f6">${e(r.value)}</td></tr>`;
    })
    .join('\n');
  return `<table ${TABLE} style="margin-top:6px"><tr><td style="font-size:13px;font-weight:600;padding:4px 0">${e(list.heading)}</td><td align="right" style="font-size:12px;${MUTED};padding:4px 0">${e(list.valueLabel)}</td></tr></table>
<table ${TABLE} data-role="top">${rows}</table>`;
}
