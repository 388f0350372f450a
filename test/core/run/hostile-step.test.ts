/**
 * The export step against hostile data and a tight deadline: top rows cut to what the email shows
 * (and free of `constructor`/`__proto__` surprises), bounded checkpoints and results, and a retry wait
 * that would pass the deadline ending the step with a checkpoint rather than failing the report.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import type { ApiPage, ApiRow, PageOptions, ReportingApi } from '#core/api/types';
import { MAX_CELL_CHARS } from '#core/email/top-columns';
import { ExporterError } from '#core/errors';
import { silentLog } from '#core/log';
import { exportReportStep } from '#core/run/export-step';
import { MAX_CHECKPOINT_BYTES, payloadBytes } from '#core/run/payload';
import type { ExportCheckpoint, ExportDeps, ExportStepResult } from '#core/run/types';
import { POSTS_TASK, pagedApi, postRows, postsConfig } from './fakes';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hostile-step-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const deps = (api: ReportingApi, over: Partial<ExportDeps> = {}): ExportDeps => ({
  api,
  sink: createFsSink(dir),
  log: silentLog,
  tuning: { rowGroupRows: 40 },
  ...over,
});

function wideRows(n: number): ApiRow[] {
  return postRows(n).map((row, i) => ({
    ...row,
    caption: `${'long caption '.repeat(200)}#${i}`,
    creatorName: `creator\n${i}`,
    notes: 'n'.repeat(5000),
    extra1: 'e',
    extra2: 'e',
    extra3: 'e',
    extra4: 'e',
    ...(i % 3 === 0 ? { constructor: `ctor-${i}` } : {}),
    ...(i % 4 === 0 ? JSON.parse(`{"__proto__": "proto-${i}", "toString": "ts-${i}"}`) : {}),
  }));
}

async function done(result: ExportStepResult) {
  if (result.status !== 'done') throw new Error(`expected done, got ${result.status}`);
  return result.outcome;
}

describe('top rows that leave the step', () => {
  it('carry only the columns the email shows, each cut to its display length', async () => {
    const outcome = await done(
      await exportReportStep(postsConfig(), POSTS_TASK, null, deps(pagedApi(wideRows(50), 10))),
    );
    expect(outcome.manifest.status).toBe('succeeded');
    expect(outcome.top).toHaveLength(3);
    for (const row of outcome.top) {
      const keys = Object.keys(row);
      expect(keys.length).toBeLessThanOrEqual(6);
      expect(keys).toContain('likes');
      expect(keys).not.toContain('notes');
      for (const v of Object.values(row)) {
        if (typeof v === 'string') {
          expect(Array.from(v).length).toBeLessThanOrEqual(MAX_CELL_CHARS);
          expect(v).not.toMatch(/\n/);
        }
      }
    }
    // the whole outcome stays small although every row carries ~8 KB of text
    expect(payloadBytes(outcome)).toBeLessThan(8_000);
  });

  it('are masked by the client when they echo a secret', async () => {
    const api = pagedApi(
      postRows(10).map((r) => ({ ...r, creatorName: 'token=SECRET-VALUE' })),
      5,
    );
    const redacting = {
      ...api,
      redact: <T>(v: T): T => JSON.parse(JSON.stringify(v).replaceAll('SECRET-VALUE', '[redacted]')) as T,
    };
    const outcome = await done(await exportReportStep(postsConfig(), POSTS_TASK, null, deps(redacting)));
    expect(JSON.stringify(outcome.top)).toContain('token=[redacted]');
    expect(JSON.stringify(outcome.top)).not.toContain('SECRET-VALUE');
  });
});

describe('bounded payloads', () => {
  it('refuses a cursor longer than 4096 characters with a clear reason instead of carrying it on', async () => {
    const rows = postRows(20);
    const api: ReportingApi = {
      async *pages(): AsyncIterable<ApiPage> {
        yield { rows: rows.slice(0, 10), nextCursor: 'c'.repeat(10_000), index: 0 };
        yield { rows: rows.slice(10), nextCursor: null, index: 1 };
      },
      async close() {},
    };
    const result = await exportReportStep(
      postsConfig(),
      POSTS_TASK,
      null,
      deps(api, { timeLeftMs: () => 0 }),
    );
    const outcome = await done(result);
    expect(outcome.manifest.status).toBe('failed');
    expect(outcome.manifest.error).toContain('nextCursor of 10000 characters');
  });

  it('keeps every checkpoint under its bound while top rows carry long text', async () => {
    let checkpoint: ExportCheckpoint | null = null;
    let largest = 0;
    for (let step = 0; step < 100; step++) {
      const result = await exportReportStep(
        postsConfig(),
        POSTS_TASK,
        checkpoint,
        deps(pagedApi(wideRows(60), 10), { timeLeftMs: () => 0 }),
      );
      if (result.status === 'done') break;
      largest = Math.max(largest, payloadBytes(result));
      checkpoint = JSON.parse(JSON.stringify(result.checkpoint)) as ExportCheckpoint;
    }
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThan(MAX_CHECKPOINT_BYTES);
    expect(largest).toBeLessThan(20_000);
  });
});

describe('a retry wait that would pass the deadline', () => {
  /** Pages of `rows`; the page at `stallAt` fails as the client does when its next wait will not fit. */
  function stallingApi(
    rows: readonly ApiRow[],
    pageSize: number,
    stallAt: number,
  ): ReportingApi & { calls: number } {
    const api = {
      calls: 0,
      async *pages(_r: unknown, options?: PageOptions): AsyncIterable<ApiPage> {
        let offset = options?.cursor ? Number(options.cursor.slice(1)) : 0;
        for (let index = 0; ; index++) {
          api.calls += 1;
          if (api.calls === stallAt) {
            throw new ExporterError(
              'API_RATE_LIMITED',
              'GET /v2/posts/performance answered 429 Too Many Requests (stopped after 1 attempt(s): the next wait would pass the deadline)',
              {
                retryable: true,
                details: { route: '/v2/posts/performance', status: 429, attempts: 1, outOfTime: true },
              },
            );
          }
          const page = rows.slice(offset, offset + pageSize);
          offset += page.length;
          const nextCursor = offset < rows.length ? `c${offset}` : null;
          yield { rows: page, nextCursor, index };
          if (nextCursor === null) return;
        }
      },
      async close() {},
    };
    return api;
  }

  it('ends the step with a checkpoint at the known cursor, and the next step finishes the report exactly', async () => {
    const rows = postRows(95);
    const api = stallingApi(rows, 10, 4);
    const first = await exportReportStep(postsConfig(), POSTS_TASK, null, deps(api));
    expect(first.status).toBe('continue');
    if (first.status !== 'continue') return;
    expect(first.checkpoint.cursor).toBe('c30');
    const second = await exportReportStep(
      postsConfig(),
      POSTS_TASK,
      JSON.parse(JSON.stringify(first.checkpoint)),
      deps(api),
    );
    const outcome = await done(second);
    expect(outcome.manifest.status).toBe('succeeded');
    expect(outcome.manifest.rowCount).toBe(95);
  });

  it('still fails the report when no page was fetched in this step (nothing to resume from)', async () => {
    const outcome = await done(
      await exportReportStep(postsConfig(), POSTS_TASK, null, deps(stallingApi(postRows(30), 10, 1))),
    );
    expect(outcome.manifest.status).toBe('failed');
    expect(outcome.manifest.error).toContain('the next wait would pass the deadline');
  });
});
