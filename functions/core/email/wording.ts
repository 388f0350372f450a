/** Phrases both renderers share, so the HTML and the text part say the same thing. */

import type { ColumnType } from '../manifest';
import { arrow, type Delta } from './deltas';
import { formatPercent, formatSigned } from './format';
import type { SummaryView } from './model';

export const PER_ROW = 'per row — see the table';

/** `▲ +1,234 (+12.5%)`, `new (was 0)`, `no previous run`, `n/a`. */
export function describeDelta(delta: Delta, type: ColumnType): string {
  switch (delta.kind) {
    case 'no-previous-run':
      return 'no previous run';
    case 'n/a':
      return 'n/a (not in the previous run)';
    case 'new':
      return `${arrow(delta)} ${formatSigned(delta.change, type)} (new; was 0)`;
    case 'change':
      if (delta.change === 0) return '= no change';
      return `${arrow(delta)} ${formatSigned(delta.change, type)} (${delta.ratio === null ? 'n/a' : formatPercent(delta.ratio)})`;
  }
}

/** The one-line verdict of the run for the banner. */
export function statusLine(view: SummaryView): string {
  const total = view.reports.length;
  if (view.status === 'succeeded') return `All ${total} report${total === 1 ? '' : 's'} exported`;
  if (view.status === 'failed')
    return `Export failed: none of ${total} report${total === 1 ? '' : 's'} exported`;
  return `Partly exported: ${view.succeeded} of ${total} reports succeeded, ${total - view.succeeded} failed`;
}

export const plural = (n: number, one: string, many = `${one}s`): string => (n === 1 ? one : many);
