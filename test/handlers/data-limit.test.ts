/**
 * Step Functions' 256 KB payload limit on the synthesized workflow (run by the ASL interpreter with the
 * limit modelled): `States.DataLimitExceeded` is not matched by `States.ALL`, so the definition must
 * catch it by name — one Export result too large becomes that report's `failed` row, and results too
 * large together still reach Finalize, which writes a manifest of failed reports (and so alarms).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '#core/config/schema';
import { planRun } from '#core/run/plan';
import type { ExportStepResult, ReportOutcome, RunPlan } from '#core/run/types';
import { FinalizeInputSchema, RESULTS_LOST, toOutcomes } from '#handlers/payloads';
import { definitionOf, synthExample } from '../infra/synth';
import { type Definition, type Invoke, runStates } from './asl';

const LIMIT = 256 * 1024;
const RUN = { scheduleId: 'weekly-campaigns', scheduledTime: '2026-11-23T07:00:00Z' };

let definition: Definition;
let config: Config;

beforeAll(async () => {
  const synth = await synthExample();
  definition = definitionOf(synth.template) as unknown as Definition;
  config = synth.config;
}, 120_000);

function outcomeOf(reportId: string, topBytes: number): ReportOutcome {
  return {
    manifest: {
      reportId,
      route: 'campaigns/performance',
      status: 'succeeded',
      rowCount: 1,
      pages: 1,
      columns: [],
      totals: {},
      error: null,
      files: [],
    },
    top: topBytes > 0 ? [{ caption: 'x'.repeat(topBytes) }] : [],
  };
}

/** Runs the definition; Export answers each report with an outcome of the given top size. */
async function run(topBytesOf: (reportId: string) => number) {
  let plan: RunPlan | undefined;
  let finalizeInput: unknown;
  const invoke: Invoke = async (resource, input) => {
    if (resource.includes('Plan')) {
      plan = planRun(config, RUN, { now: () => new Date(RUN.scheduledTime), newRunId: () => 'run-1' });
      return JSON.parse(JSON.stringify(plan));
    }
    if (resource.includes('Finalize')) {
      finalizeInput = input;
      return { status: 'done' };
    }
    const { task } = input as { task: { reportId: string } };
    const result = { status: 'done', task, outcome: outcomeOf(task.reportId, topBytesOf(task.reportId)) };
    return result as ExportStepResult;
  };
  await runStates(definition, RUN, invoke, {}, { payloadBytes: LIMIT });
  if (!plan) throw new Error('never planned');
  const outcomes = toOutcomes(config, FinalizeInputSchema.parse(finalizeInput));
  return { plan, outcomes };
}

describe('States.DataLimitExceeded', () => {
  it('an Export result over 256 KB fails that report only, with the reason, and the run is finalized', async () => {
    const { plan, outcomes } = await run((id) => (id === plan0(config) ? LIMIT + 1 : 0));
    const big = outcomes.find((o) => o.manifest.reportId === plan0(config));
    expect(big?.manifest.status).toBe('failed');
    expect(big?.manifest.error).toContain('States.DataLimitExceeded');
    expect(outcomes.filter((o) => o.manifest.status === 'succeeded')).toHaveLength(plan.tasks.length - 1);
  });

  it('results too large together still reach Finalize, every report failed with a plain reason', async () => {
    // each result fits alone; together they pass the limit
    const { plan, outcomes } = await run(() => Math.ceil(LIMIT / 2));
    expect(plan.tasks.length).toBeGreaterThan(2);
    expect(outcomes.map((o) => o.manifest.reportId).sort()).toEqual(plan.tasks.map((t) => t.reportId).sort());
    expect(outcomes.every((o) => o.manifest.status === 'failed' && o.manifest.error === RESULTS_LOST)).toBe(
      true,
    );
  });

  it('without the limit, the same run finalizes every outcome (the test is not failing by accident)', async () => {
    const { outcomes } = await run(() => 10);
    expect(outcomes.every((o) => o.manifest.status === 'succeeded')).toBe(true);
  });
});

function plan0(cfg: Config): string {
  return cfg.schedules.find((s) => s.id === RUN.scheduleId)?.reports[0]?.id ?? '';
}
