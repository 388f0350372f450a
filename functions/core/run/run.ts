/**
 * A whole run in-process (the CLI): plan → take the window's lease → export every report in parallel
 * → finalize (which releases the lease). All reports share one API client, whose own limiter keeps
 * requests within `api.concurrency`; the exports here only overlap their encoding and writing.
 * Another run holding the window makes this one wait up to the lease's `waitMs`, then stop with
 * WINDOW_BUSY before anything is written.
 */

import { WindowLease, WORKFLOW_LEASE } from '../commit/lease';
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
  const lease = await WindowLease.acquire(
    deps.sink,
    { prefix: config.output.prefix, scheduleId: plan.scheduleId, window: plan.window },
    plan.runId,
    deps.lease ?? WORKFLOW_LEASE,
    deps.now,
    deps.log,
  );
  const heartbeat = lease.keepAlive();
  try {
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
  } finally {
    heartbeat.stop();
    await lease.release();
  }
}
