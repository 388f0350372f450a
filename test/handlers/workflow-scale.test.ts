/**
 * The workflow at the size lookback allows: 28 windows × 20 reports (560 tasks, lookback 27) through
 * the synthesized state machine definition (ASL interpreter, ./asl.ts): the Plan's task list and the
 * Distributed Map's results go through S3 (here a folder), so no state value comes near Step
 * Functions' 256 KB payload limit, while the same results inline would pass it; each task is a child
 * execution (no inline Map's history grows with the run); Finalize reads everything back, including
 * a child execution that failed outright.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import { parseConfig } from '#core/config/load';
import type { Config } from '#core/config/schema';
import { runTasksKey } from '#core/export/keys';
import { silentLog } from '#core/log';
import type { Manifest } from '#core/manifest';
import { finalizeRun } from '#core/run/finalize';
import { readMapResults, readTasks, writeTasks } from '#core/run/map-items';
import { FinalizeInputSchema, type PlannedRun, toOutcomes } from '#core/run/map-results';
import { planRun } from '#core/run/plan';
import type { ExportStepResult, ReportTask } from '#core/run/types';
import type { Sink } from '#core/sink';
import { workflowDefinition } from '../infra/synth';
import { type Definition, type Invoke, type MapIo, type Observed, runStates } from './asl';

/** What the Plan handler returns as `credentials` when the token route issued a token. */
const ACCEPTED = { status: 'accepted' } as const;

const PAYLOAD_LIMIT = 256 * 1024;
const REPORTS = 20;
const LOOKBACK = 27;
const RUN = { scheduleId: 'daily', scheduledTime: '2026-11-23T06:00:00Z' };
const METRICS = ['likes', 'comments', 'shares', 'saves', 'views', 'paidImpressions'];

const config: Config = parseConfig(`
api: { baseUrl: https://reporting.example.com, credentialsSecret: reporting/v2/client }
schedules:
  - id: daily
    cron: "0 7 * * ? *"
    timezone: Europe/Berlin
    window: yesterday
    lookback: ${LOOKBACK}
    reports:
${Array.from(
  { length: REPORTS },
  (_, i) =>
    `      - { id: report-${String(i).padStart(2, '0')}, route: posts/performance, metrics: [${METRICS.join(', ')}], summary: { kpis: [likes], topBy: likes, topN: 10 } }`,
).join('\n')}
`);

let dir: string;
let sink: Sink;
let definition: Definition;
let observed: Observed;
let planned: PlannedRun;
let finalizeInput: unknown;
const childOutputs: unknown[] = [];
let manifest: Manifest;
let io: MapIo;
let invoke: Invoke;

/** A done outcome as big as a real one: columns, totals, two files and the top 10 rows. */
function exported(task: ReportTask): ExportStepResult {
  const top = task.restate
    ? []
    : Array.from({ length: 10 }, (_, i) => ({
        postId: `post-${task.reportId}-${i}-${'x'.repeat(24)}`,
        platform: 'instagram',
        caption: 'A caption of the kind people write under a post, with a few words'.slice(0, 60),
        ...Object.fromEntries(METRICS.map((m, j) => [m, 100_000 - i * 1000 + j])),
      }));
  const folder = (f: string) => `exports/daily/${task.reportId}/${f}/dt=${task.window.end}/part-00000.${f}`;
  return {
    status: 'done',
    task,
    outcome: {
      window: task.window,
      manifest: {
        reportId: task.reportId,
        route: 'posts/performance',
        status: 'succeeded',
        rowCount: 12_345,
        pages: 25,
        columns: [
          { name: 'postId', type: 'string' },
          { name: 'platform', type: 'string' },
          { name: 'caption', type: 'string' },
          { name: 'window_start', type: 'date' },
          { name: 'window_end', type: 'date' },
          ...METRICS.map((name) => ({ name, type: 'int64' as const })),
        ],
        totals: Object.fromEntries(METRICS.map((m, j) => [m, 1_234_567 + j])),
        error: null,
        files: ['parquet', 'csv'].map((format) => ({
          format: format as 'parquet' | 'csv',
          key: folder(format),
          bytes: 456_789,
          rows: 12_345,
          sha256: 'a'.repeat(64),
        })),
      },
      top,
    },
    step: { pages: 25, rows: 12_345, retries: 0 },
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'workflow-scale-'));
  sink = createFsSink(dir);
  // the definition is what is tested here: no Lambda bundles are built
  definition = workflowDefinition(config, join(dir, 'cdk.out')) as unknown as Definition;

  io = {
    getObject: async (_bucket, key) =>
      new TextDecoder().decode((await sink.getObject(key)) ?? new Uint8Array()),
    putObject: async (_bucket, key, body) => {
      await sink.putObject(key, body, 'application/json');
    },
  };
  invoke = async (resource, input) => {
    if (resource.includes('Plan')) {
      // what the Plan handler does: plan, tasks to S3, the plan without them to the state
      const { tasks, ...plan } = planRun(config, input as typeof RUN, {
        now: () => new Date('2026-11-23T06:00:01Z'),
        newRunId: () => 'run-scale',
      });
      const key = runTasksKey(config.output.prefix, plan.runId);
      await writeTasks(sink, key, tasks);
      planned = {
        ...plan,
        items: { bucket: 'exports-bucket', key },
        taskCount: tasks.length,
        credentials: ACCEPTED,
      };
      return JSON.parse(JSON.stringify(planned));
    }
    if (resource.includes('Finalize')) {
      finalizeInput = input;
      return { manifestKey: 'k', manifestLocation: 'l', status: 'succeeded', emailed: 0 };
    }
    const { task } = input as { task: ReportTask };
    // One child execution fails outright (its result has no outcome: ReportDone cannot read it).
    if (task.reportId === 'report-07' && task.window.end === '2026-11-10') return { status: 'done', task };
    const result = exported(task);
    if (result.status === 'done') childOutputs.push(result.outcome);
    return JSON.parse(JSON.stringify(result));
  };
  observed = { mapItems: [], largestState: 0 };
  await runStates(definition, RUN, invoke, {}, { io, observed });

  // What the Finalize handler does with its input: tasks and results back from S3 → manifests.
  const { plan: p, results } = FinalizeInputSchema.parse(finalizeInput);
  const { items, taskCount: _, ...rest } = p;
  const plan = { ...rest, tasks: await readTasks(sink, items.key) };
  if ('error' in results) throw new Error(`the Map failed: ${results.error}`);
  const read = await readMapResults(sink, results.ResultWriterDetails.Key);
  ({ manifest } = await finalizeRun(config, plan, toOutcomes(config, plan, read.results), {
    sink,
    mailer: null,
    log: silentLog,
    now: () => new Date('2026-11-23T06:30:00Z'),
  }));
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe(`the workflow at ${LOOKBACK + 1} windows × ${REPORTS} reports`, () => {
  it('synthesizes a Distributed Map that reads its items from S3 and writes its results to S3', () => {
    const map = definition.States.ExportReports as unknown as Record<string, unknown> & {
      ItemProcessor: { ProcessorConfig: unknown };
    };
    expect(map.Type).toBe('Map');
    expect(map.ItemProcessor.ProcessorConfig).toEqual({ Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' });
    expect(map.ItemReader).toMatchObject({
      ReaderConfig: { InputType: 'JSON' },
      Parameters: { 'Key.$': '$.plan.items.key' },
    });
    expect(map.ResultWriter).toMatchObject({ Parameters: { Prefix: 'exports/_workflow/results' } });
    expect(map.ItemsPath).toBeUndefined();
    expect(map.MaxConcurrency).toBe(4);
    expect(map.ToleratedFailurePercentage).toBe(100);
  });

  it('plans 560 tasks into S3 and keeps every state value far below 256 KB', () => {
    expect(planned.taskCount).toBe((LOOKBACK + 1) * REPORTS);
    expect(observed.mapItems).toEqual([(LOOKBACK + 1) * REPORTS]);
    expect(observed.largestState).toBeLessThan(PAYLOAD_LIMIT / 16);
    expect(JSON.stringify(finalizeInput).length).toBeLessThan(PAYLOAD_LIMIT / 16);
    // …where the same results inline (an inline Map's output) would not fit one payload
    expect(JSON.stringify(childOutputs).length).toBeGreaterThan(PAYLOAD_LIMIT);
  });

  it('finalizes from the results in S3: 20 reports, 27 restated windows, the failed child named', () => {
    expect(manifest.reports.map((r) => r.reportId)).toEqual(
      Array.from({ length: REPORTS }, (_, i) => `report-${String(i).padStart(2, '0')}`),
    );
    expect(manifest.status).toBe('succeeded');
    expect(manifest.restated).toHaveLength(LOOKBACK);
    expect(manifest.restated?.[0]?.window.end).toBe('2026-11-21');
    expect(manifest.restated?.at(-1)?.window.end).toBe('2026-10-26');
    const failed = manifest.restated?.flatMap((w) =>
      w.reports.filter((r) => r.status === 'failed').map((r) => [w.window.end, r.reportId, r.error]),
    );
    expect(failed).toEqual([['2026-11-10', 'report-07', expect.stringMatching(/^States\.Runtime/)]]);
    expect(manifest.restated?.every((w) => w.reports.length === REPORTS)).toBe(true);
  });
});

describe('when the Map itself fails', () => {
  it('its Catch still reaches Finalize, which reports every task failed with the Map’s error', async () => {
    const broken: MapIo = {
      ...io,
      getObject: async () => {
        throw Object.assign(new Error('Access Denied reading the task list'), {
          name: 'States.ItemReaderFailed',
        });
      },
    };
    await runStates(definition, RUN, invoke, {}, { io: broken });
    const { plan: p, results } = FinalizeInputSchema.parse(finalizeInput);
    expect('error' in results).toBe(true);
    const { items, taskCount: _, ...rest } = p;
    const plan = { ...rest, tasks: await readTasks(sink, items.key) };
    const outcomes = toOutcomes(config, plan, [], 'error' in results ? results.error : undefined);
    expect(outcomes).toHaveLength((LOOKBACK + 1) * REPORTS);
    expect(new Set(outcomes.map((o) => o.manifest.status))).toEqual(new Set(['failed']));
    expect(outcomes[0]?.manifest.error).toBe('States.ItemReaderFailed: Access Denied reading the task list');
  });
});
