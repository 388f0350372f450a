/**
 * A whole run in-process (the CLI): plan → export every report in parallel → finalize. All reports
 * share one API client, whose own limiter keeps requests within `api.concurrency`; the exports here
 * only overlap their encoding and writing.
 */
import type { Config } from '../config/schema';
import type { Manifest } from '../manifest';
import { exportReportStep } from './export-step';
import { finalizeRun } from './finalize';
import { planRun } from './plan';
import type { ReportOutcome, RunDeps, RunRequest } from './types';

/** Runs one schedule occurrence end to end and returns its manifest (already written). */
export async function runSchedule(config: Config, request: RunRequest, deps: RunDeps): Promise<Manifest> {
  const plan = planRun(config, request, deps);
  deps.log.info('run planned', {
    scheduleId: plan.scheduleId,
    runId: plan.runId,
    window: `${plan.window.start}..${plan.window.end}`,
    reports: plan.tasks.length,
  });
  const outcomes = await Promise.all(
    plan.tasks.map(async (task): Promise<ReportOutcome> => {
      // No time limit in-process, so the step always finishes in one go.
      const result = await exportReportStep(config, task, null, deps);
      if (result.status !== 'done') throw new Error('an export without a time limit cannot pause');
      return result.outcome;
    }),
  );
  const { manifest } = await finalizeRun(config, plan, outcomes, deps);
  return manifest;
}
