/**
 * Plan Lambda: the Scheduler's `{scheduleId, scheduledTime}` → the run plan: its window, the lookback
 * windows and one task per (window, report). The tasks go to S3, where the Distributed Map reads them
 * (a run of 28 windows × 20 reports would not fit a state payload); the state carries the plan
 * without them and where they are, and the credentials preflight's answer (`credentials`), which the
 * Map hands to every Export task: one token request per run, however many Export containers run it.
 */
import { randomUUID } from 'node:crypto';
import { runTasksKey } from '#core/export/keys';
import { assertWithinLimits } from '#core/limits';
import { checkCredentials } from '#core/run/credentials-check';
import { writeTasks } from '#core/run/map-items';
import type { PlannedRun } from '#core/run/map-results';
import { planRun } from '#core/run/plan';
import { preflightClient } from './api';
import { planEnv } from './env';
import { exportSink } from './io';
import { PlanInputSchema } from './payloads';
import { lambdaHandler, log, logger, runtimeConfig } from './wiring';

/** Time kept back from the preflight's token request (retries included): writing the task list. */
export const PLAN_RESERVE_MS = 10_000;

export const handler = lambdaHandler(
  async (event: unknown, context): Promise<PlannedRun> => {
    const request = PlanInputSchema.parse(event);
    const config = runtimeConfig();
    // the limits validate and cdk synth check, again before any data is fetched (a config deployed
    // before a limit existed, or by other means): the execution fails here, with no run started
    assertWithinLimits(config, 'the deployed config');
    const env = planEnv();
    const { tasks, ...plan } = planRun(config, request, { now: () => new Date(), newRunId: randomUUID });
    logger.appendKeys({ scheduleId: plan.scheduleId, runId: plan.runId });
    // credentials that cannot be read fail the execution here, before any task is written (as the
    // CLI stops before any report); a token 401/403 is recorded for every Export task to fail with
    const api = preflightClient(config);
    const credentials = await checkCredentials(
      api,
      { runId: plan.runId, deadlineMs: () => context.getRemainingTimeInMillis() - PLAN_RESERVE_MS },
      log,
    ).finally(() => api.close());
    const key = runTasksKey(config.output.prefix, plan.runId);
    await writeTasks(exportSink(env.BUCKET_NAME), key, tasks);
    log.info('run planned', {
      window: `${plan.window.start}..${plan.window.end}`,
      reports: tasks.filter((t) => !t.restate).map((t) => t.reportId),
      lookbackWindows: plan.lookback.map((l) => l.window.end),
      tasks: tasks.length,
      credentials: credentials.status,
    });
    return { ...plan, items: { bucket: env.BUCKET_NAME, key }, taskCount: tasks.length, credentials };
  },
  { metrics: false },
);
