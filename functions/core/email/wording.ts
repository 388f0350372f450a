/** Phrases both renderers share, so the HTML and the text part say the same thing. */

import type { RunStatus } from '../manifest';
import { arrow, type Delta } from './deltas';
import { formatPercent } from './format';
import type { ValueFormat } from './units';

/**
 * `▲ +1,234 (+12.5%) vs 9–15 Nov`, `▲ +890 (new; was 0) vs 9–15 Nov`, `no earlier run to compare with`,
 * `not in the run of 9–15 Nov`. `vs` is the compared window in short form, when there is one.
 */
export function describeDelta(delta: Delta, fmt: Pick<ValueFormat, 'signed'>, vs?: string): string {
  const against = vs ? ` vs ${vs}` : '';
  switch (delta.kind) {
    case 'no-previous-run':
      return 'no earlier run to compare with';
    case 'n/a':
      return vs ? `not in the run of ${vs}` : 'n/a (not in the previous run)';
    case 'new':
      return `${arrow(delta)} ${fmt.signed(delta.change)} (new; was 0)${against}`;
    case 'change':
      if (delta.change === 0) return `= no change${against}`;
      return `${arrow(delta)} ${fmt.signed(delta.change)} (${delta.ratio === null ? 'n/a' : formatPercent(delta.ratio)})${against}`;
  }
}

/** The one-line verdict of the run for the banner. */
export function statusLine(view: {
  readonly status: RunStatus;
  readonly reports: readonly unknown[];
  readonly succeeded: number;
}): string {
  const total = view.reports.length;
  const reports = `report${total === 1 ? '' : 's'}`;
  if (view.status === 'succeeded')
    return total === 1 ? 'The report is up to date' : `All ${total} reports are up to date`;
  if (view.status === 'failed') return `None of the ${total} ${reports} could be updated`;
  const failed = total - view.succeeded;
  return `${view.succeeded} of ${total} reports are up to date; ${failed} could not be updated`;
}

/**
 * For operators, after the verdict: how many reports carry warnings (partial results from the API,
 * values altered by a documented rule), or null when none does. A green "up to date" alone would hide
 * them below the fold.
 */
export function warningsLine(reports: readonly { readonly warnings: readonly unknown[] }[]): string | null {
  const warned = reports.filter((r) => r.warnings.length > 0).length;
  if (warned === 0) return null;
  return warned === 1 && reports.length === 1
    ? 'The report carries warnings: see Warnings below'
    : `${warned} of ${reports.length} reports carry warnings: see Warnings below`;
}

/**
 * What stakeholders read for a failed report: no error text, code, status or location.
 * "The Post performance report could not be updated for 16–22 Nov; the data team has been told."
 */
export function failureSentence(title: string, period: string, operatorsTold: boolean): string {
  const who = operatorsTold ? 'the data team has been told' : 'please let the data team know';
  return `The ${title} report could not be updated for ${period}; ${who}.`;
}

export const plural = (n: number, one: string, many = `${one}s`): string => (n === 1 ? one : many);
