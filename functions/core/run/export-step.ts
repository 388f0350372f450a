/**
 * One step of a report export: pages → flatten → row groups → CSV/Parquet parts → sink.
 *
 * Continuation (Lambda): after each page, when `timeLeftMs()` is below the safety margin and more
 * pages remain, the step flushes and closes the open part cleanly and returns `continue` with a
 * checkpoint (next cursor, next part index, files, schema, totals, top N, counts). Called again with
 * that checkpoint it resumes at the cursor with the next part, so the rows written are exactly those
 * of an uninterrupted export (only the split into parts differs).
 *
 * Integrity: every step first takes (or re-enters) the lease of its task's window and keeps it renewed
 * while it works. Parts are written to the run's staging folder; the finished export is made the
 * report's partition by the commit protocol (`core/commit/partition.ts`). A failure aborts the
 * in-flight objects, drops the staged parts and reports `failed` with a plain reason: the previous
 * partition, its `_SUCCESS` and its manifest entry stay as they were.
 */

import { WindowLease, WORKFLOW_LEASE } from '../commit/lease';
import { type PartitionCommit, partitionCommit } from '../commit/partition';
import { ROUTE_SPECS } from '../config/routes';
import type { Config, ReportConfig } from '../config/schema';
import { describeError } from '../errors';
import type { Format } from '../export/keys';
import { PAGES_AHEAD, readAhead } from '../export/prefetch';
import { ReportWriter } from '../export/report-writer';
import type { ManifestReport } from '../manifest';
import { type CheckpointState, CheckpointStateSchema } from './checkpoint';
import { findReport, findSchedule } from './lookup';
import { reportRequest } from './request';
import type { ExportCheckpoint, ExportDeps, ExportStepResult, ReportTask } from './types';

const DEFAULTS = { rowGroupRows: 50_000, maxPartBytes: 512 * 1024 * 1024, safetyMarginMs: 60_000 };

/** Exports one report, or as much of it as the time budget allows. Never throws for export failures. */
export async function exportReportStep(
  config: Config,
  task: ReportTask,
  checkpoint: ExportCheckpoint | null,
  deps: ExportDeps,
): Promise<ExportStepResult> {
  const schedule = findSchedule(config, task.scheduleId);
  const report = findReport(schedule, task.reportId);
  const tuning = { ...DEFAULTS, ...deps.tuning };
  const formats: readonly Format[] = config.output.formats;
  const now = deps.now ?? (() => new Date());
  // Throws WINDOW_BUSY (before anything is written) when another run holds the window.
  const lease = await WindowLease.acquire(
    deps.sink,
    { prefix: config.output.prefix, scheduleId: task.scheduleId, window: task.window },
    task.runId,
    deps.lease ?? WORKFLOW_LEASE,
    now,
  );
  const heartbeat = lease.keepAlive();
  try {
    return await exportWithLease(config, task, checkpoint, deps, {
      report,
      formats,
      tuning,
      commit: partitionCommit(
        deps.sink,
        { ...task, prefix: config.output.prefix, formats, order: schedule.reports.map((r) => r.id) },
        lease,
        now,
      ),
    });
  } finally {
    heartbeat.stop();
  }
}

interface StepContext {
  readonly report: ReportConfig;
  readonly formats: readonly Format[];
  readonly tuning: typeof DEFAULTS;
  readonly commit: PartitionCommit;
}

async function exportWithLease(
  config: Config,
  task: ReportTask,
  checkpoint: ExportCheckpoint | null,
  deps: ExportDeps,
  { report, formats, tuning, commit }: StepContext,
): Promise<ExportStepResult> {
  const folders = commit.staging;
  const resumed: CheckpointState | null = checkpoint ? CheckpointStateSchema.parse(checkpoint) : null;
  const writer = new ReportWriter(
    {
      sink: deps.sink,
      window: task.window,
      formats,
      folders,
      idFields: ROUTE_SPECS[report.route].idFields,
      metrics: report.metrics ?? [],
      topBy: report.summary.topBy,
      topN: report.summary.topN,
      rowGroupRows: tuning.rowGroupRows,
      maxRowsPerPart: config.output.maxRowsPerPart,
      maxPartBytes: tuning.maxPartBytes,
      ...(deps.encoder ? { encoder: deps.encoder } : {}),
    },
    resumed ?? undefined,
  );
  let pages = resumed?.pages ?? 0;
  const progress = (done: boolean) =>
    deps.onProgress?.({ reportId: task.reportId, pages, rows: writer.rows, done });
  const outcome = (status: 'succeeded' | 'failed', error: string | null): ManifestReport => ({
    reportId: task.reportId,
    route: report.route,
    status,
    rowCount: writer.rows,
    pages,
    columns: writer.columns().map(({ name, type }) => ({ name, type })),
    totals: status === 'succeeded' ? writer.totalsResult() : {},
    error,
    files: status === 'succeeded' ? [...writer.writtenFiles()] : [],
  });

  const controller = new AbortController();
  try {
    const source = deps.api.pages(reportRequest(report, task.window), {
      cursor: resumed?.cursor ?? null,
      signal: controller.signal,
    });
    for await (const page of readAhead(source, PAGES_AHEAD, () => controller.abort())) {
      for (const row of page.rows) await writer.add(row);
      pages += 1;
      progress(false);
      const cursor = page.nextCursor;
      if (cursor !== null && deps.timeLeftMs !== undefined && deps.timeLeftMs() < tuning.safetyMarginMs) {
        await writer.closePart();
        const state: CheckpointState = { version: 1, cursor, pages, ...writer.snapshot() };
        deps.log.info('export paused for continuation', {
          reportId: task.reportId,
          pages,
          rows: writer.rows,
        });
        return { status: 'continue', task, checkpoint: state };
      }
    }
    const files = await writer.finish();
    const committed = await commit.commit(outcome('succeeded', null));
    progress(true);
    deps.log.info('report exported', {
      reportId: task.reportId,
      rows: writer.rows,
      pages,
      files: files.length,
    });
    return { status: 'done', task, outcome: { manifest: committed, top: writer.topRows() } };
  } catch (err: unknown) {
    controller.abort();
    await writer.abort();
    await commit.discard();
    const reason = describeError(err);
    deps.log.error('report failed', { reportId: task.reportId, route: report.route, error: reason });
    progress(true);
    return { status: 'done', task, outcome: { manifest: outcome('failed', reason), top: [] } };
  } finally {
    writer.release();
  }
}
