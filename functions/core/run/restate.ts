/**
 * Lookback bookkeeping: the `restated` record (rows and totals before → after) of an earlier window
 * this run re-exported, and that window's manifest `history`.
 *
 * The re-exports commit through the export's own protocol (`core/commit/partition.ts`), which writes
 * each succeeded report's new entry into the window's manifest as it commits. So the "before" cannot
 * be read in Finalize: each Export step reads the report's entry just before it commits
 * (`entryBefore`) and carries it on its outcome (`previous`). Finalize then only appends the run to
 * the window's `history` and merges failed re-exports with the rule of `core/commit/close.ts` (a
 * failure never replaces a succeeded entry: its partition was left whole).
 */

import { mergeReports, parseManifest, updateWindowManifest } from '../commit/window-manifest';
import type { LookbackWindow } from '../lookback';
import type {
  Manifest,
  ManifestHistoryEntry,
  ManifestReport,
  RestatedReport,
  RestatedWindow,
  TotalBeforeAfter,
} from '../manifest';
import { own } from '../records';
import type { Sink } from '../sink';
import type { PreviousEntry, ReportOutcome, RunPlan } from './types';

/**
 * The report's succeeded entry in the window's manifest (null when none). Before the window's first
 * re-export it also starts the window's `history` with the run that first wrote it, as the commit
 * that follows puts this run's id at the head of the manifest.
 */
export async function entryBefore(sink: Sink, key: string, reportId: string): Promise<PreviousEntry | null> {
  const body = await sink.getObject(key);
  const current = body ? parseManifest(body) : null;
  if (!current) return null;
  if (!current.history) {
    await updateWindowManifest(sink, key, (m) => {
      const base = m ?? current;
      return base.history ? base : { ...base, history: [firstExport(base)] };
    });
  }
  const was = current.reports.find((r) => r.reportId === reportId && r.status === 'succeeded');
  return was ? { rowCount: was.rowCount, totals: was.totals } : null;
}

export interface RestateInput {
  readonly plan: RunPlan;
  readonly earlier: LookbackWindow;
  /** This run's outcomes for the window, in task order. */
  readonly outcomes: readonly ReportOutcome[];
  /** The schedule's report ids, in config order. */
  readonly order: readonly string[];
  readonly manifestKey: string;
  readonly finishedAt: string;
}

/** Records the re-export in the window's manifest; returns what changed. */
export async function restateWindow(sink: Sink, input: RestateInput): Promise<RestatedWindow> {
  const { plan, earlier, outcomes, order, finishedAt } = input;
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
  const failed = outcomes.map((o) => o.manifest).filter((r) => r.status !== 'succeeded');
  await updateWindowManifest(sink, input.manifestKey, (current) => {
    const kept = new Map((current?.reports ?? []).map((r) => [r.reportId, r]));
    const entries = failed.filter((r) => kept.get(r.reportId)?.status !== 'succeeded');
    const merged = mergeReports(current, current ?? head(plan, earlier, finishedAt), entries, order);
    return { ...merged, history: [...(current?.history ?? []), entry] };
  });
  return {
    window: earlier.window,
    manifestKey: input.manifestKey,
    reports: outcomes.map((o) => compare(o.manifest, o.previous ?? null)),
  };
}

/** The head of a window's manifest first written by a re-export (the window was never exported). */
function head(plan: RunPlan, earlier: LookbackWindow, finishedAt: string) {
  return {
    scheduleId: plan.scheduleId,
    runId: plan.runId,
    scheduledTime: earlier.scheduledTime,
    window: earlier.window,
    startedAt: plan.startedAt,
    finishedAt,
  };
}

/** The history entry of the run that wrote a window before any re-export: its own run. */
function firstExport(m: Manifest): ManifestHistoryEntry {
  return {
    runId: m.runId,
    scheduledTime: m.scheduledTime,
    finishedAt: m.finishedAt,
    kind: 'export',
    reports: m.reports.map((r) => ({ reportId: r.reportId, status: r.status, rowCount: r.rowCount })),
  };
}

function compare(now: ManifestReport, was: PreviousEntry | null): RestatedReport {
  const ok = now.status === 'succeeded';
  // built with fromEntries and read with own(): a metric named "__proto__" or "constructor" is a key
  const names = new Set([...Object.keys(was?.totals ?? {}), ...Object.keys(now.totals)]);
  const totals: Record<string, TotalBeforeAfter> = Object.fromEntries(
    [...names].map((metric): [string, TotalBeforeAfter] => [
      metric,
      {
        before: (was ? own(was.totals, metric) : undefined) ?? null,
        after: ok ? (own(now.totals, metric) ?? null) : null,
      },
    ]),
  );
  return {
    reportId: now.reportId,
    status: now.status,
    rows: { before: was ? was.rowCount : null, after: ok ? now.rowCount : null },
    totals,
    error: now.error,
  };
}
