import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import type { Mailer } from '#core/email/types';
import { isExporterError } from '#core/errors';
import type { Catalog } from '#core/export/catalog';
import { runTasksKey } from '#core/export/keys';
import { silentLog } from '#core/log';
import { writeTasks } from '#core/run/map-items';
import type { FinalizeInput } from '#core/run/map-results';
import { planRun } from '#core/run/plan';
import { finalizeWorkflowRun, type WorkflowFinalizeDeps } from '#core/run/workflow-finalize';
import type { Sink } from '#core/sink';
import { recordingMailer } from '../../support/mailer';
import { weeklyConfig } from './fakes';

const CONFIG = weeklyConfig();
let dir: string;
let sink: Sink;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'workflow-finalize-'));
  sink = createFsSink(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A planned run whose Map failed as a whole (every report is reported failed), its tasks in S3. */
async function plannedRun(): Promise<FinalizeInput> {
  const { tasks, ...plan } = planRun(
    CONFIG,
    { scheduleId: 'weekly', scheduledTime: '2026-11-23T07:00:00Z' },
    { now: () => new Date('2026-11-23T07:00:00Z'), newRunId: () => 'run-1' },
  );
  const key = runTasksKey(CONFIG.output.prefix, plan.runId);
  await writeTasks(sink, key, tasks);
  return {
    plan: { ...plan, items: { bucket: 'b', key }, taskCount: tasks.length },
    results: { error: JSON.stringify({ Error: 'States.Timeout', Cause: 'the Map timed out' }) },
  };
}

function deps(steps: string[], over: Partial<WorkflowFinalizeDeps> = {}): WorkflowFinalizeDeps {
  const catalog: Catalog = {
    columns: async () => null,
    setColumns: async () => undefined,
    createTable: async () => true,
  };
  return {
    sink,
    mailer: recordingMailer(),
    log: silentLog,
    now: () => new Date('2026-11-23T07:30:00Z'),
    announce: async (m) => {
      steps.push(`announce ${m.status}`);
    },
    recordRun: () => steps.push('metrics'),
    catalog,
    ...over,
  };
}

describe('finalizeWorkflowRun', () => {
  it('writes the manifest, announces it, records metrics, then removes the run scratch objects', async () => {
    const input = await plannedRun();
    const steps: string[] = [];
    const result = await finalizeWorkflowRun(CONFIG, input, deps(steps));
    expect(result.manifest.status).toBe('failed');
    expect(result.manifest.reports.map((r) => r.error)).toEqual(['States.Timeout', 'States.Timeout']);
    expect(steps).toEqual(['announce failed', 'metrics']);
    expect(await sink.getObject(result.manifestKey)).not.toBeNull();
    expect(await sink.getObject(input.plan.items.key)).toBeNull();
  });

  it('fails before writing anything when the task list in S3 is not the one the plan made', async () => {
    const input = await plannedRun();
    const steps: string[] = [];
    const wrong = { ...input, plan: { ...input.plan, taskCount: input.plan.taskCount + 1 } };
    await expect(finalizeWorkflowRun(CONFIG, wrong, deps(steps))).rejects.toThrow(
      /task list holds 2 tasks, the plan made 3/,
    );
    expect(steps).toEqual([]);
    expect(await sink.list(CONFIG.output.prefix)).toEqual([input.plan.items.key]);
  });

  it('throws EMAIL_FAILED only after the manifest, the event, the metrics and the clean-up', async () => {
    const input = await plannedRun();
    const steps: string[] = [];
    const failing: Mailer = {
      send: async () => {
        throw new Error('SES throttled');
      },
    };
    const run = finalizeWorkflowRun(CONFIG, input, deps(steps, { mailer: failing }));
    const err = await run.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isExporterError(err, 'EMAIL_FAILED')).toBe(true);
    expect(steps).toEqual(['announce failed', 'metrics']);
    expect(await sink.getObject(input.plan.items.key)).toBeNull();
  });
});
