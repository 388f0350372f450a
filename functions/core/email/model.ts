/**
 * The summary as plain data, computed once and rendered for two audiences (stakeholders, operators) in
 * two parts (HTML, text), so every rendering carries the same numbers in the same words.
 */
import type { ReportConfig, ScheduleConfig } from '../config/schema';
import type { Format } from '../export/formats';
import type { Manifest, ManifestReport, ReportWarning, RunStatus } from '../manifest';
import { own } from '../records';
import { formatRange } from './dates';
import { arrow, delta, previousReport } from './deltas';
import { type KpiView, kpiViews } from './kpi-view';
import { labeller, valueLabeller } from './labels';
import { buildRanked, type RankedList } from './ranked';
import { ACCOUNTS, coverageLine, nounWithTerm, reportTitle, type Shape, shapeOf } from './shape';
import { buildTrendView, type TrendView } from './trend-view';
import type { SummaryInput } from './types';
import { valueFormat } from './units';
import { describeDelta } from './wording';

export type Audience = 'stakeholders' | 'operators';

export type { KpiView } from './kpi-view';

export interface FileLine {
  readonly format: Format;
  readonly location: string;
  readonly bytes: number;
  readonly rows: number;
}

export interface ReportView {
  readonly reportId: string;
  readonly route: string;
  readonly title: string;
  readonly coverage: string;
  readonly shape: Shape;
  readonly status: 'succeeded' | 'failed';
  readonly error: string | null;
  readonly errorCode: string | null;
  readonly warnings: readonly ReportWarning[];
  readonly rowCount: number;
  readonly pages: number;
  /** `No posts in this period` when a succeeded report has no rows; null otherwise. */
  readonly empty: string | null;
  /** `40 campaigns`: what the rows are, for people. */
  readonly rowsText: string;
  /** List routes: the count as a KPI (with its change). */
  readonly count: KpiView | null;
  readonly kpis: readonly KpiView[];
  readonly ranked: RankedList | null;
  readonly trend: TrendView | null;
  readonly files: readonly FileLine[];
}

export interface SummaryView {
  readonly title: string;
  readonly scheduleId: string;
  readonly status: RunStatus;
  readonly window: Manifest['window'];
  /** `16–22 Nov 2026`. */
  readonly period: string;
  /** The window changes are compared with, short (`9–15 Nov`); null on a first run. */
  readonly comparedWith: string | null;
  readonly runId: string;
  readonly scheduledTime: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly hasPreviousRun: boolean;
  readonly succeeded: number;
  /** Whether operators get their own email (so stakeholders can be told the data team knows). */
  readonly operatorsTold: boolean;
  readonly reports: readonly ReportView[];
}

type ViewInput = Pick<SummaryInput, 'config' | 'schedule' | 'manifest' | 'previous' | 'top' | 'locate'>;

/** The schedule's title: `title`, else `description`, else its id. */
export function scheduleTitle(schedule: Pick<ScheduleConfig, 'id' | 'title' | 'description'>): string {
  return schedule.title?.trim() || schedule.description?.trim() || schedule.id;
}

/** Builds the view of one run from the summary input (pure; no I/O). */
export function buildView(input: ViewInput, operatorsTold = false): SummaryView {
  const { schedule, manifest, previous } = input;
  const configs = new Map(schedule.reports.map((r) => [r.id, r]));
  const comparedWith = previous
    ? formatRange(
        previous.window.start,
        previous.window.end,
        previous.window.end.slice(0, 4) !== manifest.window.end.slice(0, 4),
      )
    : null;
  return {
    title: scheduleTitle(schedule),
    scheduleId: manifest.scheduleId,
    status: manifest.status,
    window: manifest.window,
    period: formatRange(manifest.window.start, manifest.window.end),
    comparedWith,
    runId: manifest.runId,
    scheduledTime: manifest.scheduledTime,
    startedAt: manifest.startedAt,
    finishedAt: manifest.finishedAt,
    hasPreviousRun: previous !== null,
    succeeded: manifest.reports.filter((r) => r.status === 'succeeded').length,
    operatorsTold,
    reports: manifest.reports.map((report) =>
      reportView(report, configs.get(report.reportId), input, comparedWith ?? undefined),
    ),
  };
}

function reportView(
  report: ManifestReport,
  config: ReportConfig | undefined,
  input: ViewInput,
  vs: string | undefined,
): ReportView {
  const ok = report.status === 'succeeded';
  const label = labeller(input.config.email?.labels, config?.labels);
  const currency = config?.currency ?? input.config.email?.currency;
  const types = new Map(
    report.columns.flatMap((c) => [[c.name, c.type] as const, [c.apiName ?? c.name, c.type] as const]),
  );
  const fmt = (name: string) => valueFormat(name, types.get(name), currency);
  const shape = shapeOf(report.route);
  const rows = own(input.top, report.reportId) ?? [];
  const term = input.config.email?.accountTerm ?? ACCOUNTS;
  const nounOf = (n: number) => nounWithTerm(report.route, n, term);
  const noun = nounOf(report.rowCount);
  const kpis: KpiView[] =
    ok && report.rowCount > 0
      ? kpiViews(config?.summary.kpis ?? [], {
          report,
          previous: input.previous,
          run: input.manifest,
          aggregates: config?.summary.aggregates,
          label,
          titleOf: (id) => {
            const c = input.schedule.reports.find((r) => r.id === id);
            return c ? reportTitle(c) : id;
          },
          noun: nounOf,
          currency,
          vs,
        })
      : [];
  const before = previousReport(report, input.previous);
  const countDelta = delta(report.rowCount, before?.rowCount, input.previous !== null);
  const countFmt = valueFormat('count', 'int64');
  return {
    reportId: report.reportId,
    route: report.route,
    title: config ? reportTitle(config) : reportTitle({ route: report.route }),
    coverage: config ? coverageLine(config, term) : '',
    shape,
    status: report.status,
    error: report.error,
    errorCode: report.errorCode ?? null,
    warnings: report.warnings ?? [],
    rowCount: report.rowCount,
    pages: report.pages,
    // One row of account totals is not "1 row" to a reader.
    empty: ok && report.rowCount === 0 ? `No ${nounOf(2)} in this period` : null,
    rowsText:
      report.route === 'instances/performance' ? 'totals' : `${countFmt.format(report.rowCount)} ${noun}`,
    count:
      ok && shape === 'count'
        ? {
            label: capital(nounOf(2)),
            value: countFmt.format(report.rowCount),
            arrow: arrow(countDelta),
            note: describeDelta(countDelta, countFmt, vs),
          }
        : null,
    kpis,
    ranked:
      ok && shape === 'ranked' && config?.summary.topBy
        ? buildRanked(
            rows,
            report,
            config,
            label,
            fmt,
            valueLabeller(input.config.email?.labels, config?.labels),
          )
        : null,
    trend: ok && shape === 'trend' && config ? buildTrendView(rows, report, config, label, fmt) : null,
    files: report.files.map((f) => ({
      format: f.format,
      location: input.locate(f.key),
      bytes: f.bytes,
      rows: f.rows,
    })),
  };
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
