/**
 * One step of a report export: pages → flatten → row groups → CSV/Parquet parts → sink.
 *
 * Continuation (Lambda): after each page, when `timeLeftMs()` is below the safety margin and more
 * pages remain, the step flushes and closes the open part cleanly and returns `continue` with a
 * checkpoint (next cursor, next part index, files, schema, totals, top N, counts). Called again with
 * that checkpoint it resumes at the cursor with the next part, so the rows written are exactly those
 * of an uninterrupted export (only the split into parts differs).
 *
 * Re-runs: a fresh export first deletes its folders' `_SUCCESS`, then writes parts over the old ones,
 * then deletes any part this export did not write (stale), then writes `_SUCCESS`. A failure aborts the
 * in-flight objects and reports `failed` with a plain reason; `_SUCCESS` is never written then.
 */
import { ROUTE_SPECS } from '../config/routes';
import type { Config } from '../config/schema';
import { isOverTime, MAX_TREND_POINTS } from '../email/shape';
import { describeError, isExporterError } from '../errors';
import type { Format } from '../export/keys';
import { partitionPrefix, successKey } from '../export/keys';
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
  const report = findReport(findSchedule(config, task.scheduleId), task.reportId);
  const tuning = { ...DEFAULTS, ...deps.tuning };
  const formats: readonly Format[] = config.output.formats;
  const folders = Object.fromEntries(
    formats.map((f) => [
      f,
      partitionPrefix(config.output.prefix, task.scheduleId, task.reportId, f, task.window.end),
    ]),
  ) as Record<Format, string>;
  const resumed: CheckpointState | null = checkpoint ? CheckpointStateSchema.parse(checkpoint) : null;
  const writer = new ReportWriter(
    {
      sink: deps.sink,
      window: task.window,
      formats,
      folders,
      idFields: ROUTE_SPECS[report.route].idFields,
      metrics: report.metrics ?? [],
      // An over-time report's email shows its buckets as a trend in date order, never ranked.
      ...(isOverTime(report.route)
        ? { topBy: undefined, topN: MAX_TREND_POINTS, inOrder: true }
        : { topBy: report.summary.topBy, topN: report.summary.topN }),
      rowGroupRows: tuning.rowGroupRows,
      maxRowsPerPart: config.output.maxRowsPerPart,
      maxPartBytes: tuning.maxPartBytes,
    },
    resumed ?? undefined,
  );
  let pages = resumed?.pages ?? 0;
  const progress = (done: boolean) =>
    deps.onProgress?.({ reportId: task.reportId, pages, rows: writer.rows, done });
  const outcome = (
    status: 'succeeded' | 'failed',
    error: string | null,
    errorCode?: string,
  ): ManifestReport => ({
    reportId: task.reportId,
    route: report.route,
    status,
    rowCount: writer.rows,
    pages,
    columns: writer.columns().map(({ name, type }) => ({ name, type })),
    totals: status === 'succeeded' ? writer.totalsResult() : {},
    error,
    ...(errorCode ? { errorCode } : {}),
    files: [...writer.writtenFiles()],
  });

  const controller = new AbortController();
  try {
    if (!resumed) await deps.sink.deleteObjects(formats.map((f) => successKey(folders[f])));
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
    await removeStaleParts(deps, formats, folders, new Set(files.map((f) => f.key)));
    for (const f of formats) await deps.sink.putObject(successKey(folders[f]), '', 'text/plain');
    progress(true);
    deps.log.info('report exported', {
      reportId: task.reportId,
      rows: writer.rows,
      pages,
      files: files.length,
    });
    return { status: 'done', task, outcome: { manifest: outcome('succeeded', null), top: writer.topRows() } };
  } catch (err: unknown) {
    controller.abort();
    await writer.abort();
    const reason = describeError(err);
    deps.log.error('report failed', { reportId: task.reportId, route: report.route, error: reason });
    progress(true);
    const code = isExporterError(err) ? err.code : 'INTERNAL';
    return { status: 'done', task, outcome: { manifest: outcome('failed', reason, code), top: [] } };
  }
}

async function removeStaleParts(
  deps: ExportDeps,
  formats: readonly Format[],
  folders: Record<Format, string>,
  written: ReadonlySet<string>,
): Promise<void> {
  for (const f of formats) {
    const keys = await deps.sink.list(folders[f]);
    const stale = keys.filter((k) => !written.has(k) && k !== successKey(folders[f]));
    if (stale.length > 0) await deps.sink.deleteObjects(stale);
  }
}
