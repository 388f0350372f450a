/** Plan Lambda: the Scheduler's `{scheduleId, scheduledTime}` → the run plan (window + one task per report). */
import { randomUUID } from 'node:crypto';
import { planRun } from '#core/run/plan';
import type { RunPlan } from '#core/run/types';
import { PlanInputSchema } from './payloads';
import { lambdaHandler, log, logger, runtimeConfig } from './wiring';

export const handler = lambdaHandler(
  async (event: unknown): Promise<RunPlan> => {
    const request = PlanInputSchema.parse(event);
    const config = runtimeConfig();
    const plan = planRun(config, request, { now: () => new Date(), newRunId: randomUUID });
    logger.appendKeys({ scheduleId: plan.scheduleId, runId: plan.runId });
    log.info('run planned', {
      window: `${plan.window.start}..${plan.window.end}`,
      reports: plan.tasks.map((t) => t.reportId),
    });
    return plan;
  },
  { metrics: false },
);
