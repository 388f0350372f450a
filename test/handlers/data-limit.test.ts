/**
 * Step Functions' 256 KB payload limit on the synthesized workflow (run by the ASL interpreter with the
 * limit modelled): `States.DataLimitExceeded` is not matched by `States.ALL`, so the definition must
 * catch it by name — one Export result too large becomes that report's `failed` row; results too large
 * together never meet the limit, because the Distributed Map writes them to S3 and Finalize reads
 * them back from there.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '#core/config/schema';
import { readMapResults } from '#core/run/map-items';
import { FinalizeInputSchema, toOutcomes } from '#core/run/map-results';
import { planRun } from '#core/run/plan';
import type { ExportStepResult, ReportOutcome, RunPlan } from '#core/run/types';
import type { Sink } from '#core/sink';
import { definitionOf, synthExample } from '../infra/synth';
import { type Definition, type Invoke, type MapIo, runStates } from './asl';

/** What the Plan handler returns as `credentials` when the token route issued a token. */
const ACCEPTED = { status: 'accepted' } as const;

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
  const objects = new Map<string, string>();
  const io: MapIo = {
    getObject: async (_bucket, key) => objects.get(key) ?? '',
    putObject: async (_bucket, key, body) => {
      objects.set(key, body);
    },
  };
  const invoke: Invoke = async (resource, input) => {
    if (resource.includes('Plan')) {
      plan = planRun(config, RUN, { now: () => new Date(RUN.scheduledTime), newRunId: () => 'run-1' });
      const { tasks, ...rest } = plan;
      objects.set('tasks.json', JSON.stringify(tasks));
      return {
        ...rest,
        items: { bucket: 'b', key: 'tasks.json' },
        taskCount: tasks.length,
        credentials: ACCEPTED,
      };
    }
    if (resource.includes('Finalize')) {
      finalizeInput = input;
      return { status: 'done' };
    }
    const { task } = input as { task: { reportId: string } };
    const result = { status: 'done', task, outcome: outcomeOf(task.reportId, topBytesOf(task.reportId)) };
    return result as ExportStepResult;
  };
  await runStates(definition, RUN, invoke, {}, { payloadBytes: LIMIT, io });
  if (!plan) throw new Error('never planned');
  const { results } = FinalizeInputSchema.parse(finalizeInput);
  if ('error' in results) throw new Error(`the Map failed: ${results.error}`);
  const sink = {
    getObject: async (key: string) => {
      const body = objects.get(key);
      return body === undefined ? null : new TextEncoder().encode(body);
    },
  } as Pick<Sink, 'getObject'> as Sink;
  const read = await readMapResults(sink, results.ResultWriterDetails.Key);
  const outcomes = toOutcomes(config, plan, read.results);
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

  it('results too large together are no limit: they go to S3, and every report is finalized', async () => {
    // each result fits alone; together they pass the limit
    const { plan, outcomes } = await run(() => Math.ceil(LIMIT / 2));
    expect(plan.tasks.length).toBeGreaterThan(2);
    expect(outcomes.map((o) => o.manifest.reportId).sort()).toEqual(plan.tasks.map((t) => t.reportId).sort());
    expect(outcomes.every((o) => o.manifest.status === 'succeeded')).toBe(true);
  });

  it('without the limit, the same run finalizes every outcome (the test is not failing by accident)', async () => {
    const { outcomes } = await run(() => 10);
    expect(outcomes.every((o) => o.manifest.status === 'succeeded')).toBe(true);
  });
});

function plan0(cfg: Config): string {
  return cfg.schedules.find((s) => s.id === RUN.scheduleId)?.reports[0]?.id ?? '';
}
