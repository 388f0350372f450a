/**
 * A KPI card as people read it: every card carries a number and says what the number is — a total, the
 * average per row of a metric that is never summed ("Engagement rate · average per post"), the API's
 * own figure when the config names where it is, or "no data" when no row had a number.
 */
import type { Manifest, ManifestReport } from '../manifest';
import { arrow, type Kpi, kpisFor } from './deltas';
import { formatNumber } from './format';
import { valueFormat } from './units';
import { describeDelta } from './wording';

export interface KpiView {
  readonly label: string;
  /** The number with its unit; `no data` when no row had one. Null only for manifests of old versions. */
  readonly value: string | null;
  readonly arrow: '▲' | '▼' | '=' | '';
  /** The change in words, or what the value is. */
  readonly note: string;
}

export interface KpiContext {
  readonly report: ManifestReport;
  readonly previous: Manifest | null;
  readonly run: Manifest;
  /** `summary.aggregates`: metric → the id of the report holding the API's own figure. */
  readonly aggregates: Readonly<Record<string, string>> | undefined;
  readonly label: (name: string) => string;
  /** The title of a report of this run, by id. */
  readonly titleOf: (reportId: string) => string;
  /** What one row is (`post`), for "average per post". */
  readonly noun: (n: number) => string;
  readonly currency: string | undefined;
  /** The compared window, short (`9–15 Nov`). */
  readonly vs: string | undefined;
}

export function kpiViews(kpis: readonly string[], ctx: KpiContext): KpiView[] {
  return kpisFor(kpis, ctx.report, ctx.previous, { sources: ctx.aggregates, run: ctx.run }).map((kpi) =>
    kpiView(kpi, ctx),
  );
}

function kpiView(kpi: Kpi, ctx: KpiContext): KpiView {
  const label = ctx.label(kpi.metric);
  switch (kpi.kind) {
    case 'total': {
      const f = valueFormat(kpi.metric, kpi.type, ctx.currency);
      return {
        label,
        value: f.format(kpi.value),
        arrow: arrow(kpi.delta),
        note: describeDelta(kpi.delta, f, ctx.vs),
      };
    }
    case 'mean': {
      const f = valueFormat(kpi.metric, 'double', ctx.currency);
      const over = `average of ${formatNumber(kpi.rows, 'int64')} ${ctx.noun(kpi.rows)}`;
      return {
        label: `${label} · average per ${ctx.noun(1)}`,
        value: f.format(kpi.value),
        arrow: arrow(kpi.delta),
        note:
          kpi.delta.kind === 'change' || kpi.delta.kind === 'new'
            ? describeDelta(kpi.delta, f, ctx.vs)
            : `${over}; ${describeDelta(kpi.delta, f, ctx.vs)}`,
      };
    }
    case 'aggregate': {
      const f = valueFormat(kpi.metric, 'double', ctx.currency);
      return {
        label,
        value: f.format(kpi.value),
        arrow: '',
        note: `as reported for ${ctx.titleOf(kpi.from)}`,
      };
    }
    case 'no-data':
      return { label, value: 'no data', arrow: '', note: `no ${ctx.noun(1)} had a value` };
    case 'per-row':
      return { label, value: null, arrow: '', note: 'an average or rate, not added up' };
  }
}
