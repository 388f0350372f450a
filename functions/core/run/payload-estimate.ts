/**
 * The largest Step Functions payload a config can produce, estimated before anything is deployed: the
 * Finalize step's input (the plan plus every report's outcome) is the biggest. `validate` and
 * `cdk synth` refuse a config whose estimate passes `SAFE_PAYLOAD_BYTES`, naming the schedule and
 * what to change, rather than let every run fail on the 256 KB limit (`../limits`: the run and the
 * Plan Lambda refuse it too, before fetching).
 *
 * The plan is measured exactly (it depends only on the config). An outcome is estimated from what the
 * config decides — the top table's columns and cell length, the metrics, the formats — plus a
 * generous allowance for what the API decides (its identifying fields, a few parts per format, text
 * of two bytes a character). At run time each outcome is held to its share of the safe size
 * (`outcomeBudget`: top rows are dropped first), so the API cannot push a run over.
 */

import { ROUTE_SPECS } from '../config/routes';
import type { Config, ScheduleConfig } from '../config/schema';
import { MAX_CELL_CHARS, topColumns } from '../email/top-columns';
import { partitionPrefix } from '../export/keys';
import { DEFAULT_TOP_N } from '../export/top';
import type { ManifestReport } from '../manifest';
import { payloadBytes, SAFE_PAYLOAD_BYTES } from './payload';
import type { RunPlan } from './types';

/** Allowance for fields the API adds to a report's columns (beyond its metrics). */
const API_FIELDS = 12;
/** Allowance for parts per format (continuations and size roll-overs each start one). */
const PARTS_PER_FORMAT = 4;
/**
 * A shown cell's JSON: a cut string at two bytes a character (accents, quotes). Stranger text (emoji,
 * escapes) can take more; the run-time share (`outcomeBudget`) holds such outcomes in bounds.
 */
const CELL_BYTES = MAX_CELL_CHARS * 2 + 2;
/** A number or date cell in JSON: `-1.2345678901234567e+308` is 24 characters. */
const NUMBER_CELL_BYTES = 24;
/** Identifying columns' names as the API commonly sends them. */
const IDENTITY_NAME_CHARS = 24;
const DAY = '2026-12-31';

/** The plan of one run of `schedule` as the workflow carries it (ids and times at full length). */
export function planBytesOf(schedule: ScheduleConfig): number {
  const runId = '00000000-0000-0000-0000-000000000000';
  const scheduledTime = '2026-12-31T23:59:59.999Z';
  const window = { start: DAY, end: DAY, timezone: schedule.timezone };
  const plan: RunPlan = {
    runId,
    scheduleId: schedule.id,
    scheduledTime,
    window,
    lookback: Array.from({ length: schedule.lookback }, () => ({ scheduledTime, window })),
    startedAt: scheduledTime,
    tasks: schedule.reports.map((r) => ({
      runId,
      scheduleId: schedule.id,
      reportId: r.id,
      scheduledTime,
      window,
    })),
  };
  return payloadBytes({ plan, outcomes: [] });
}

/** The bytes one report's outcome may reach, as far as the config decides them. */
export function outcomeBytesOf(config: Config, schedule: ScheduleConfig, reportIndex: number): number {
  const report = schedule.reports[reportIndex];
  if (report === undefined) return 0;
  const metrics = report.metrics ?? [];
  const fieldName = 'x'.repeat(32);
  const columns = [
    ...Array.from({ length: API_FIELDS }, () => ({ name: fieldName, type: 'string' as const })),
    { name: 'window_start', type: 'date' as const },
    { name: 'window_end', type: 'date' as const },
    ...metrics.map((name) => ({ name, type: 'double' as const })),
  ];
  const files = config.output.formats.flatMap((format) => {
    const folder = partitionPrefix(config.output.prefix, schedule.id, report.id, format, DAY);
    return Array.from({ length: PARTS_PER_FORMAT }, () => ({
      format,
      key: `${folder}part-00000.${format}`,
      bytes: 999_999_999_999,
      rows: 999_999_999,
      sha256: '0'.repeat(64),
    }));
  });
  const manifest: ManifestReport = {
    reportId: report.id,
    route: report.route,
    status: 'succeeded',
    rowCount: 999_999_999,
    pages: 9_999_999,
    columns,
    totals: Object.fromEntries(metrics.map((m) => [m, 123456789012.345])),
    error: null,
    files,
  };
  // the top table: identifying columns at their longest allowed name, then topBy, KPIs, metrics
  const identity = ['name_a', 'name_b'].map((n) => n.padEnd(IDENTITY_NAME_CHARS, '_'));
  // an over-time report carries its buckets (up to a year of days) for the email's trend
  const { trendCap } = ROUTE_SPECS[report.route];
  const overTime = trendCap !== null;
  const shown = overTime
    ? topColumns(['start_date', ...metrics], report)
    : report.summary.topBy === undefined
      ? []
      : topColumns([...identity, ...metrics], report);
  // a trend's cells are a date and numbers (a double is at most 24 characters), never long text
  const cell = overTime ? NUMBER_CELL_BYTES : CELL_BYTES;
  const rowBytes = 2 + shown.reduce((sum, c) => sum + c.length + 4 + cell, 0);
  const topRows =
    trendCap !== null
      ? trendCap
      : report.summary.topBy === undefined
        ? 0
        : (report.summary.topN ?? DEFAULT_TOP_N);
  return payloadBytes({ manifest, top: [] }) + topRows * rowBytes + 1;
}

export interface PayloadEstimate {
  readonly scheduleId: string;
  readonly bytes: number;
  /** The report that adds the most, for the message. */
  readonly largest: { readonly reportId: string; readonly bytes: number } | null;
}

/** The estimate of every schedule's Finalize payload. */
export function estimatePayloads(config: Config): PayloadEstimate[] {
  return config.schedules.map((schedule) => {
    const outcomes = schedule.reports.map((r, i) => ({
      reportId: r.id,
      bytes: outcomeBytesOf(config, schedule, i),
    }));
    const largest = outcomes.reduce<PayloadEstimate['largest']>(
      (a, b) => (a === null || b.bytes > a.bytes ? b : a),
      null,
    );
    return {
      scheduleId: schedule.id,
      bytes: planBytesOf(schedule) + outcomes.reduce((n, o) => n + o.bytes, 0) + outcomes.length,
      largest,
    };
  });
}

/** One problem per schedule whose estimate passes the safe payload size (empty when all fit). */
export function payloadProblems(config: Config): { path: (string | number)[]; message: string }[] {
  return estimatePayloads(config).flatMap((e, i) => {
    if (e.bytes <= SAFE_PAYLOAD_BYTES) return [];
    const largest = e.largest
      ? `; the largest is report "${e.largest.reportId}" (~${kb(e.largest.bytes)} KB)`
      : '';
    return [
      {
        path: ['schedules', i, 'reports'],
        message: `a run of schedule "${e.scheduleId}" could pass ~${kb(e.bytes)} KB between its steps, over the ${kb(SAFE_PAYLOAD_BYTES)} KB this exporter allows of Step Functions' 256 KB payload limit${largest}; lower summary.topN, show fewer KPIs, or split the reports over more schedules`,
      },
    ];
  });
}

const kb = (bytes: number) => Math.ceil(bytes / 1024);
