import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import type { ReportingApi } from '#core/api/types';
import { silentLog } from '#core/log';
import { exportReportStep } from '#core/run/export-step';
import type { ExportCheckpoint, ExportDeps, ReportOutcome, ReportTask } from '#core/run/types';
import type { Sink } from '#core/sink';
import { duckQuery, lit } from '../export/duck';
import { pagedApi, postRows, postsConfig } from './fakes';

const TASK: ReportTask = {
  runId: 'r1',
  scheduleId: 'daily',
  reportId: 'posts',
  scheduledTime: '2026-11-23T08:00:00Z',
  window: { start: '2026-11-22', end: '2026-11-22', timezone: 'UTC' },
};
const FOLDER = 'exports/daily/posts/parquet/dt=2026-11-22/';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'step-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function deps(over: Partial<ExportDeps> & { api: ExportDeps['api'] }): ExportDeps {
  return {
    sink: createFsSink(dir),
    log: silentLog,
    tuning: { rowGroupRows: 40 },
    ...over,
  };
}

async function exportAll(d: ExportDeps): Promise<{ outcome: ReportOutcome; steps: number }> {
  let checkpoint: ExportCheckpoint | null = null;
  for (let steps = 1; steps < 1000; steps += 1) {
    const result = await exportReportStep(postsConfig(), TASK, checkpoint, d);
    if (result.status === 'done') return { outcome: result.outcome, steps };
    checkpoint = JSON.parse(JSON.stringify(result.checkpoint)) as ExportCheckpoint; // as Step Functions would
  }
  throw new Error('never finished');
}

/** `inner`, each page's request retried once (through the call's own hook); records each call's deadline. */
function retryOncePerPage(inner: ReportingApi): { api: ReportingApi; deadlines: Array<number | undefined> } {
  const deadlines: Array<number | undefined> = [];
  const api: ReportingApi = {
    ...inner,
    async *pages(request, options) {
      deadlines.push(options?.deadlineMs?.());
      for await (const page of inner.pages(request, options)) {
        options?.onRetry?.({ route: request.route, status: 503, attempt: 1, delayMs: 0, reason: 'HTTP 503' });
        yield page;
      }
    },
  };
  return { api, deadlines };
}

async function readBack(format: 'parquet' | 'csv') {
  const files = (await readdir(join(dir, FOLDER.replace('parquet', format)))).filter((f) =>
    f.startsWith('part-'),
  );
  const paths = files.map((f) => lit(join(dir, FOLDER.replace('parquet', format), f))).join(',');
  const from = format === 'parquet' ? `read_parquet([${paths}])` : `read_csv([${paths}], header=true)`;
  return duckQuery(
    `SELECT post_id AS postId, likes::BIGINT AS likes, shares::BIGINT AS shares FROM ${from} ORDER BY postId`,
  );
}

describe('exportReportStep', () => {
  it('exports every row once, writes _SUCCESS after the data, and reports totals and top rows', async () => {
    const rows = postRows(250);
    const { outcome } = await exportAll(deps({ api: pagedApi(rows, 30) }));
    expect(outcome.manifest.status).toBe('succeeded');
    expect(outcome.manifest.rowCount).toBe(250);
    expect(outcome.manifest.pages).toBe(9);
    const expectedLikes = rows.reduce((s, r) => s + Number((r.metrics as { likes: number }).likes), 0);
    expect(outcome.manifest.totals).toEqual({ likes: expectedLikes, shares: expect.any(Number) });
    expect(outcome.top).toHaveLength(3);
    const back = await readBack('parquet');
    expect(back).toHaveLength(250);
    expect(back.reduce((s, r) => s + Number(r.likes), 0)).toBe(expectedLikes);
    expect(await readdir(join(dir, FOLDER))).toContain('_SUCCESS');
  });

  it('continues from a checkpoint under a tiny time budget and ends with the same data as one go', async () => {
    const rows = postRows(250);
    const whole = await exportAll(deps({ api: pagedApi(rows, 30) }));
    const wholeBack = await readBack('parquet');
    await rm(dir, { recursive: true, force: true });
    const resumed = await exportAll(
      deps({ api: pagedApi(rows, 30), timeLeftMs: () => 0, tuning: { rowGroupRows: 40, safetyMarginMs: 1 } }),
    );
    expect(resumed.steps).toBe(9);
    const { files: _a, ...wholeRest } = whole.outcome.manifest;
    const { files: _b, ...resumedRest } = resumed.outcome.manifest;
    expect(resumedRest).toEqual(wholeRest);
    expect(resumed.outcome.top).toEqual(whole.outcome.top);
    expect(await readBack('parquet')).toEqual(wholeBack);
    expect(await readBack('csv')).toEqual(wholeBack);
  });

  it("returns the step's own pages, rows and API retries, and passes the step's API deadline to every call", async () => {
    const { api, deadlines } = retryOncePerPage(pagedApi(postRows(250), 30));
    const one = await exportReportStep(postsConfig(), TASK, null, deps({ api, apiDeadlineMs: () => 42_000 }));
    expect(one.status).toBe('done');
    expect(one.step).toEqual({ pages: 9, rows: 250, retries: 9 });
    expect(deadlines).toEqual([42_000]);

    // one page per step: each step counts only itself, never what an earlier step did
    const steps = [];
    let checkpoint: ExportCheckpoint | null = null;
    for (;;) {
      const result = await exportReportStep(
        postsConfig(),
        TASK,
        checkpoint,
        deps({ api, timeLeftMs: () => 0, tuning: { rowGroupRows: 40, safetyMarginMs: 1 } }),
      );
      steps.push(result.step);
      if (result.status === 'done') break;
      checkpoint = JSON.parse(JSON.stringify(result.checkpoint)) as ExportCheckpoint;
    }
    expect(steps.map((s) => [s.pages, s.rows])).toEqual([...Array(8).fill([1, 30]), [1, 10]]);
    // a step's retries are those of the requests it made (pages read ahead included)
    for (const s of steps) expect(s.retries).toBeGreaterThanOrEqual(1);
  });

  it('a re-run with fewer rows replaces the partition and leaves no stale part', async () => {
    await exportAll(deps({ api: pagedApi(postRows(2500), 500) }));
    expect((await readdir(join(dir, FOLDER))).sort()).toEqual([
      '_SUCCESS',
      'part-00000.parquet',
      'part-00001.parquet',
      'part-00002.parquet',
    ]);
    await exportAll(deps({ api: pagedApi(postRows(300, 2), 100) }));
    expect((await readdir(join(dir, FOLDER))).sort()).toEqual(['_SUCCESS', 'part-00000.parquet']);
    const back = await readBack('parquet');
    expect(back).toHaveLength(300);
    expect(back.every((r) => String(r.postId).startsWith('post-2-'))).toBe(true);
  });

  it('a failure mid-export leaves the previous partition, its _SUCCESS and no staged or temp file, and says why', async () => {
    await exportAll(deps({ api: pagedApi(postRows(100), 50) }));
    const before = await readBack('parquet');
    const { outcome } = await exportAll(deps({ api: pagedApi(postRows(300), 50, 3) }));
    expect(outcome.manifest.status).toBe('failed');
    expect(outcome.manifest.error).toMatch(/HTTP 500/);
    expect(outcome.manifest.totals).toEqual({});
    expect(outcome.manifest.files).toEqual([]);
    expect((await readdir(join(dir, FOLDER))).sort()).toEqual(['_SUCCESS', 'part-00000.parquet']);
    expect(await readBack('parquet')).toEqual(before);
    expect(await createFsSink(dir).list('exports/daily/_staging/')).toEqual([]);
  });

  it('aborts the object being written when the sink fails mid-upload', async () => {
    const real = createFsSink(dir);
    const aborted: string[] = [];
    let writes = 0;
    const failing: Sink = {
      ...real,
      openWriter(key, type) {
        const w = real.openWriter(key, type);
        return {
          write: async (chunk) => {
            writes += 1;
            if (writes > 3) throw new Error('connection reset while uploading');
            await w.write(chunk);
          },
          close: () => w.close(),
          abort: async () => {
            aborted.push(key);
            await w.abort();
          },
        };
      },
    };
    const { outcome } = await exportAll(deps({ api: pagedApi(postRows(400), 50), sink: failing }));
    expect(outcome.manifest.status).toBe('failed');
    expect(aborted.length).toBeGreaterThan(0);
    expect(await real.list(FOLDER)).not.toContain(`${FOLDER}_SUCCESS`);
  });
});
