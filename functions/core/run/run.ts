/**
 * A whole run in-process (the CLI): plan → take the window's lease → export every (window, report)
 * task → finalize (which releases the lease, and those of the earlier windows the tasks took). All
 * tasks share one API client, whose own limiter keeps requests within `api.concurrency`. At most
 * max(`api.concurrency`, reports of the schedule) exports are open at once — every report of a run
 * without lookback, as before — so a lookback of many windows never opens hundreds of writers.
 * Another run holding the window makes this one wait up to the lease's `waitMs`, then stop with
 * WINDOW_BUSY before anything is written.
 */

import { WindowLease, WORKFLOW_LEASE } from '../commit/lease';
import type { Config } from '../config/schema';
import { createLimiter } from '../limiter';
import { exportReportStep } from './export-step';
import { finalizeRun } from './finalize';
import { planRun } from './plan';
import type { FinalizeResult, ReportOutcome, ReportTask, RunDeps, RunRequest } from './types';

/**
 * Runs one schedule occurrence end to end and returns what `finalizeRun` returns: the run's manifest
 * (already written) and, when only the summary email failed, `emailError` for the caller to report.
 */
export async function runSchedule(
  config: Config,
  request: RunRequest,
  deps: RunDeps,
): Promise<FinalizeResult> {
  const plan = planRun(config, request, deps);
  const perWindow = plan.tasks.length / (plan.lookback.length + 1);
  deps.log.info('run planned', {
    scheduleId: plan.scheduleId,
    runId: plan.runId,
    window: `${plan.window.start}..${plan.window.end}`,
    reports: perWindow,
    ...(plan.lookback.length > 0 ? { lookbackWindows: plan.lookback.length } : {}),
  });
  // The run's API token is asked for while the window's lease is taken (a few file or S3 round trips),
  // so the first page request does not wait for it afterwards (docs/performance.md, "Start"). A
  // refusal is remembered for the run (the client's token manager is scoped by runId), so every report
  // still fails with it after one token request; any other failure is left to the reports' requests.
  void deps.api.authenticate?.({ runId: plan.runId }).catch(() => undefined);
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
    const pool = createLimiter(Math.max(config.api.concurrency, perWindow));
    const outcomes = await Promise.all(
      plan.tasks.map((task: ReportTask) =>
        pool.run(async (): Promise<ReportOutcome> => {
          // No time limit in-process, so the step always finishes in one go.
          const result = await exportReportStep(config, task, null, deps);
          if (result.status !== 'done') throw new Error('an export without a time limit cannot pause');
          return result.outcome;
        }),
      ),
    );
    return await finalizeRun(config, plan, outcomes, deps);
  } finally {
    heartbeat.stop();
    await lease.release();
  }
}
