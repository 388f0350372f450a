/**
 * The synthesized state machine's Retry policies, run by the ASL interpreter (./asl.ts) with the
 * waits recorded instead of slept: an Export step that answers `WindowBusy` (another run holds the
 * window) is tried again with back-off and succeeds once the window is free, or is reported failed
 * after the last attempt; a throttled Lambda is retried on its own, shorter policy.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#core/config/load';
import type { Config } from '#core/config/schema';
import { FinalizeInputSchema, type MapResult } from '#core/run/map-results';
import { planRun } from '#core/run/plan';
import type { ExportStepResult, ReportTask } from '#core/run/types';
import { workflowDefinition } from '../infra/synth';
import { type Definition, type Invoke, type MapIo, type Observed, runStates } from './asl';

/** What the Plan handler returns as `credentials` when the token route issued a token. */
const ACCEPTED = { status: 'accepted' } as const;

const RUN = { scheduleId: 'daily', scheduledTime: '2026-11-23T06:00:00Z' };
const config: Config = parseConfig(`
api: { baseUrl: https://reporting.example.com, credentialsSecret: reporting/v2/client }
schedules:
  - id: daily
    cron: "0 7 * * ? *"
    window: yesterday
    reports:
      - { id: posts, route: posts/performance, metrics: [likes] }
`);

let dir: string;
let definition: Definition;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'workflow-retry-'));
  // the definition is what is tested here: no Lambda bundles are built
  definition = workflowDefinition(config, join(dir, 'cdk.out')) as unknown as Definition;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const named = (name: string, message: string) => Object.assign(new Error(message), { name });

function done(task: ReportTask): ExportStepResult {
  return {
    status: 'done',
    task,
    outcome: {
      window: task.window,
      manifest: {
        reportId: task.reportId,
        route: 'posts/performance',
        status: 'succeeded',
        rowCount: 1,
        pages: 1,
        columns: [{ name: 'likes', type: 'int64' }],
        totals: { likes: 1 },
        error: null,
        files: [],
      },
      top: [],
    },
    step: { pages: 1, rows: 1, retries: 0 },
  };
}

/** Runs the definition; Export fails with `failure` on its first `times` calls, then succeeds. */
async function run(failure: () => Error, times: number) {
  const objects = new Map<string, string>();
  const io: MapIo = {
    getObject: async (_bucket, key) => objects.get(key) ?? '',
    putObject: async (_bucket, key, body) => {
      objects.set(key, body);
    },
  };
  let exportCalls = 0;
  let finalizeInput: unknown;
  const invoke: Invoke = async (resource, input) => {
    if (resource.includes('Plan')) {
      const { tasks, ...plan } = planRun(config, RUN, {
        now: () => new Date(RUN.scheduledTime),
        newRunId: () => 'run-1',
      });
      objects.set('tasks.json', JSON.stringify(tasks));
      return {
        ...plan,
        items: { bucket: 'b', key: 'tasks.json' },
        taskCount: tasks.length,
        credentials: ACCEPTED,
      };
    }
    if (resource.includes('Finalize')) {
      finalizeInput = input;
      return { status: 'done' };
    }
    exportCalls += 1;
    if (exportCalls <= times) throw failure();
    return done((input as { task: ReportTask }).task);
  };
  const observed: Observed = { mapItems: [], largestState: 0 };
  const slept: number[] = [];
  await runStates(definition, RUN, invoke, {}, { io, observed, sleep: async (s) => void slept.push(s) });
  const { results } = FinalizeInputSchema.parse(finalizeInput);
  if ('error' in results) throw new Error(`the Map failed: ${results.error}`);
  const manifest = objects.get(results.ResultWriterDetails.Key) ?? '{}';
  const files = JSON.parse(manifest).ResultFiles as Record<string, { Key: string }[]>;
  const children = Object.values(files)
    .flat()
    .flatMap(({ Key }) => JSON.parse(objects.get(Key) ?? '[]') as { Output?: string }[]);
  const outputs = children.map((c) => (c.Output ? (JSON.parse(c.Output) as MapResult) : null));
  return { exportCalls, slept, retries: observed.retries ?? [], outputs };
}

describe('the workflow retries what is worth retrying', () => {
  it('tries a busy window again after 30 and 60 s, and exports it once the other run is done', async () => {
    const { exportCalls, slept, retries, outputs } = await run(
      () => named('WindowBusy', 'run run-0 holds the window'),
      2,
    );
    expect(slept).toEqual([30, 60]);
    expect(retries.map((r) => `${r.state}: ${r.error}`)).toEqual([
      'Export: WindowBusy',
      'Export: WindowBusy',
    ]);
    expect(exportCalls).toBe(3);
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).toMatchObject({ manifest: { reportId: 'posts', status: 'succeeded' } });
  });

  it('reports the window busy after four retries (7.5 minutes of back-off), as a failed report', async () => {
    const { exportCalls, slept, outputs } = await run(
      () => named('WindowBusy', 'run run-0 holds the window'),
      99,
    );
    expect(slept).toEqual([30, 60, 120, 240]);
    expect(slept.reduce((a, b) => a + b, 0)).toBe(450);
    expect(exportCalls).toBe(5);
    expect(outputs).toHaveLength(1);
    const failed = outputs[0] as { failed: { reportId: string; error: string } };
    expect(failed.failed.reportId).toBe('posts');
    expect(JSON.parse(failed.failed.error).Error).toBe('WindowBusy');
  });

  it('retries a throttled Lambda three times after 5, 10 and 20 s', async () => {
    const { slept, exportCalls, outputs } = await run(
      () => named('Lambda.TooManyRequestsException', 'Rate exceeded'),
      3,
    );
    expect(slept).toEqual([5, 10, 20]);
    expect(exportCalls).toBe(4);
    expect(outputs[0]).toMatchObject({ manifest: { status: 'succeeded' } });
  });

  it('does not retry an error no policy names: the report fails at once', async () => {
    const { slept, exportCalls, outputs } = await run(() => named('ExporterError', 'HTTP 400'), 1);
    expect(slept).toEqual([]);
    expect(exportCalls).toBe(1);
    expect(outputs[0]).toHaveProperty('failed');
  });
});
