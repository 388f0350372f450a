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

import { isOutOfTime } from '../api/retry';
import type { ApiPage } from '../api/types';
import { WindowLease, WORKFLOW_LEASE } from '../commit/lease';
import { type PartitionCommit, partitionCommit } from '../commit/partition';
import { validMetricsOf } from '../config/known-metrics';
import { ROUTE_SPECS } from '../config/routes';
import type { Config, ReportConfig, ScheduleConfig } from '../config/schema';
import { describeError, isExporterError } from '../errors';
import type { Format } from '../export/formats';
import { sinkModelStore } from '../export/model-store';
import { PAGES_AHEAD, readAhead } from '../export/prefetch';
import { ReportWriter } from '../export/report-writer';
import { DEFAULT_TOP_N } from '../export/top';
import type { ManifestReport } from '../manifest';
import { type CheckpointState, CheckpointStateSchema } from './checkpoint';
import { failedEntry } from './failed-entry';
import { lossGuards } from './guards';
import { findReport, findSchedule } from './lookup';
import { boundedCheckpoint, boundedOutcome, outcomeBudget, shortReason, summaryTop } from './payload';
import { planBytesOf } from './payload-estimate';
import { reportRequest } from './request';
import { entryBefore } from './restate';
import type { ExportCheckpoint, ExportDeps, ExportStepResult, ReportTask } from './types';

const DEFAULTS = { rowGroupRows: 25_000, maxPartBytes: 512 * 1024 * 1024, safetyMarginMs: 60_000 };

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
      schedule,
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
  readonly schedule: ScheduleConfig;
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
  { schedule, report, formats, tuning, commit }: StepContext,
): Promise<ExportStepResult> {
  const folders = commit.staging;
  const resumed: CheckpointState | null = checkpoint ? CheckpointStateSchema.parse(checkpoint) : null;
  // An over-time report's email shows its buckets as a trend in date order, never ranked.
  const { trendCap } = ROUTE_SPECS[report.route];
  const writer = new ReportWriter(
    {
      sink: deps.sink,
      models: sinkModelStore(deps.sink, config.output.prefix, task.scheduleId, task.reportId),
      window: task.window,
      formats,
      folders,
      idFields: ROUTE_SPECS[report.route].idFields,
      metrics: report.metrics ?? [],
      naming: config.output.columnNames,
      overrides: report.columns,
      formulaGuard: config.output.csvFormulaGuard,
      maxKeysPerObject: config.output.maxKeysPerObject,
      ...(trendCap !== null
        ? { topBy: undefined, topN: trendCap, inOrder: true }
        : { topBy: report.summary.topBy, topN: report.summary.topN ?? DEFAULT_TOP_N }),
      rowGroupRows: tuning.rowGroupRows,
      maxRowsPerPart: config.output.maxRowsPerPart,
      maxPartBytes: tuning.maxPartBytes,
      ...(deps.encoder ? { encoder: deps.encoder } : {}),
    },
    resumed ?? undefined,
  );
  const guards = lossGuards(config, report, resumed?.guards);
  let pages = resumed?.pages ?? 0;
  /** The cursor of the next page to fetch, and how many pages this step took (for a deadline pause). */
  let nextCursor = resumed?.cursor ?? null;
  let stepPages = 0;
  let retries = 0;
  /** This step's own counts, returned with its result (the Export handler's metrics). */
  const step = () => ({ pages: stepPages, rows: writer.rows - (resumed?.rows ?? 0), retries });
  const progress = (done: boolean) =>
    deps.onProgress?.({ reportId: task.reportId, pages, rows: writer.rows, done });
  const outcome = (
    status: 'succeeded' | 'failed',
    error: string | null,
    errorCode?: string,
    validMetrics?: string[],
  ): ManifestReport => {
    // merged, never replaced: the writer's (type breaks …) and the silent-loss guards' warnings
    const warnings = [...writer.warnings(), ...guards.warnings()];
    const counted = {
      rowCount: writer.rows,
      pages,
      columns: writer.manifestColumns(),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
    if (status === 'failed')
      return failedEntry(task.reportId, report.route, error ?? 'the export failed', {
        ...counted,
        ...(errorCode ? { errorCode } : {}),
        ...(validMetrics ? { validMetrics } : {}),
      });
    const rowMeans = writer.meansResult();
    const means = Object.keys(rowMeans).length > 0 ? { means: rowMeans } : {};
    return {
      reportId: task.reportId,
      route: report.route,
      status,
      ...counted,
      totals: writer.totalsResult(),
      ...means,
      error: null,
      files: [...writer.writtenFiles()],
    };
  };

  const pause = async (cursor: string): Promise<ExportStepResult> => {
    await writer.closePart();
    const state = { version: 1 as const, cursor, pages, ...writer.snapshot(), guards: guards.snapshot() };
    deps.log.info('export paused for continuation', { reportId: task.reportId, pages, rows: writer.rows });
    return {
      status: 'continue',
      task,
      checkpoint: boundedCheckpoint(state, report, deps.api),
      step: step(),
    };
  };

  const controller = new AbortController();
  try {
    const source = deps.api.pages(reportRequest(report, task.window), {
      cursor: resumed?.cursor ?? null,
      signal: controller.signal,
      runId: task.runId,
      ...(deps.apiDeadlineMs ? { deadlineMs: deps.apiDeadlineMs } : {}),
      onRetry: () => {
        retries += 1;
      },
    });
    /** One page into the writer and the guards; its cursor back. */
    const take = async (page: ApiPage): Promise<string | null> => {
      guards.observe(page);
      await writer.addAll(page.rows);
      if (page.invalidSequences) writer.noteInvalidBytes(page.rows);
      pages += 1;
      stepPages += 1;
      progress(false);
      return page.nextCursor;
    };
    // Stepped by hand, not `for await`: that keeps the last page in its iteration result while it
    // waits for the next one — a page more in memory for the whole export (docs/performance.md).
    const ahead = readAhead(source, PAGES_AHEAD, () => controller.abort());
    let next: IteratorResult<ApiPage> | undefined;
    try {
      for (;;) {
        next = await ahead.next();
        if (next.done === true) break;
        const cursor = await take(next.value);
        next = undefined;
        nextCursor = cursor;
        if (cursor !== null && deps.timeLeftMs !== undefined && deps.timeLeftMs() < tuning.safetyMarginMs) {
          return await pause(cursor);
        }
      }
    } finally {
      // what `for await` does when its loop is left early: the read-ahead stops (and its request)
      if (next?.done !== true) await ahead.return(undefined);
    }
    const files = await writer.finish();
    // sized before anything is committed: a result that cannot be passed on fails the report cleanly
    const done = boundedOutcome(
      {
        window: task.window,
        manifest: outcome('succeeded', null),
        // a lookback re-export's top rows are shown nowhere (the email is the current window's)
        top: task.restate ? [] : summaryTop(writer.topRows(), report, deps.api),
      },
      outcomeBudget(planBytesOf(schedule), schedule.reports.length),
    );
    // one `report warning` line per warning of the entry (writer, guards and payload bound alike)
    for (const w of done.manifest.warnings ?? [])
      deps.log.warn('report warning', { reportId: task.reportId, ...w });
    // a lookback re-export: the entry it replaces, read before the commit rewrites it (`restated`)
    const previous = task.restate
      ? await entryBefore(deps.sink, commit.manifestKey, task.reportId)
      : undefined;
    const committed = await commit.commit(done.manifest);
    progress(true);
    deps.log.info('report exported', {
      reportId: task.reportId,
      rows: writer.rows,
      pages,
      files: files.length,
    });
    return {
      status: 'done',
      task,
      outcome: { ...done, manifest: committed, ...(previous !== undefined ? { previous } : {}) },
      step: step(),
    };
  } catch (err: unknown) {
    controller.abort();
    // a retry wait that would pass the deadline: carry on in the next step from the known cursor
    let failure = err;
    if (isOutOfTime(err) && nextCursor !== null && stepPages > 0) {
      try {
        return await pause(nextCursor);
      } catch (pauseErr: unknown) {
        failure = pauseErr;
      }
    }
    await writer.abort();
    await commit.discard();
    const reason = shortReason(describeError(failure));
    deps.log.error('report failed', { reportId: task.reportId, route: report.route, error: reason });
    progress(true);
    const code = isExporterError(failure) ? failure.code : 'INTERNAL';
    const previous = task.restate
      ? await entryBefore(deps.sink, commit.manifestKey, task.reportId).catch(() => null)
      : undefined;
    return {
      status: 'done',
      task,
      outcome: {
        window: task.window,
        manifest: outcome('failed', reason, code, validMetricsOf(failure)),
        top: [],
        ...(previous !== undefined ? { previous } : {}),
      },
      step: step(),
    };
  } finally {
    writer.release();
  }
}
