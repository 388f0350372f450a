/**
 * Lookback bookkeeping: an earlier window's manifest after this run re-exported some of its reports,
 * and the `restated` record (rows and totals before → after) for the current run's manifest.
 *
 * A report whose re-export succeeded replaces its entry; one whose re-export failed keeps the earlier
 * entry (its partition was left whole), and the record says why. The window's `history` keeps every
 * run that wrote it: the first export (taken from the earlier manifest), then each re-export.
 */

import type { LookbackWindow } from '../lookback';
import {
  type BeforeAfter,
  type Manifest,
  type ManifestHistoryEntry,
  type ManifestReport,
  type RestatedReport,
  type RestatedWindow,
  runStatus,
} from '../manifest';
import type { ReportOutcome, RunPlan } from './types';

export interface RestateInput {
  readonly plan: RunPlan;
  readonly earlier: LookbackWindow;
  /** The window's manifest before this run, or null when it was never exported. */
  readonly previous: Manifest | null;
  /** This run's outcomes for the window, in task order. */
  readonly outcomes: readonly ReportOutcome[];
  readonly manifestKey: string;
  readonly finishedAt: string;
}

/** The window's updated manifest and what changed in it. */
export function restateWindow(input: RestateInput): { manifest: Manifest; restated: RestatedWindow } {
  const { plan, earlier, previous, outcomes, finishedAt } = input;
  const reports: ManifestReport[] = [...(previous?.reports ?? [])];
  const restated: RestatedReport[] = [];
  for (const { manifest: now } of outcomes) {
    const i = reports.findIndex((r) => r.reportId === now.reportId);
    const before = i >= 0 ? reports[i] : undefined;
    const was = before?.status === 'succeeded' ? before : undefined;
    if (now.status === 'succeeded' || !before) {
      if (i >= 0) reports[i] = now;
      else reports.push(now);
    }
    restated.push(compare(now, was));
  }
  const entry: ManifestHistoryEntry = {
    runId: plan.runId,
    scheduledTime: plan.scheduledTime,
    finishedAt,
    kind: 'restatement',
    reports: outcomes.map(({ manifest: r }) => ({
      reportId: r.reportId,
      status: r.status,
      rowCount: r.rowCount,
    })),
  };
  const manifest: Manifest = previous
    ? {
        ...previous,
        status: runStatus(reports),
        reports,
        history: [...(previous.history ?? [firstExport(previous)]), entry],
      }
    : {
        manifestVersion: 1,
        scheduleId: plan.scheduleId,
        runId: plan.runId,
        scheduledTime: earlier.scheduledTime,
        window: earlier.window,
        startedAt: plan.startedAt,
        finishedAt,
        status: runStatus(reports),
        reports,
        history: [entry],
      };
  return {
    manifest,
    restated: { window: earlier.window, manifestKey: input.manifestKey, reports: restated },
  };
}

/** The history entry of a manifest written before lookback kept a history: its own run. */
function firstExport(m: Manifest): ManifestHistoryEntry {
  return {
    runId: m.runId,
    scheduledTime: m.scheduledTime,
    finishedAt: m.finishedAt,
    kind: 'export',
    reports: m.reports.map((r) => ({ reportId: r.reportId, status: r.status, rowCount: r.rowCount })),
  };
}

function compare(now: ManifestReport, was: ManifestReport | undefined): RestatedReport {
  const ok = now.status === 'succeeded';
  const totals: Record<string, BeforeAfter> = {};
  for (const metric of new Set([...Object.keys(was?.totals ?? {}), ...Object.keys(now.totals)])) {
    totals[metric] = { before: was?.totals[metric] ?? null, after: ok ? (now.totals[metric] ?? null) : null };
  }
  return {
    reportId: now.reportId,
    status: now.status,
    rows: { before: was ? was.rowCount : null, after: ok ? now.rowCount : null },
    totals,
    error: now.error,
  };
}
