/**
 * Export Lambda: one step of one report. Returns `continue` with a checkpoint when the Lambda's time
 * runs low (the workflow calls it again with that checkpoint), or `done` with the report's outcome.
 * When another execution holds the window's lease (an overlapping run of the same window), it fails
 * with the error name `WindowBusy`, which the workflow retries with back-off before giving up.
 * Invoked by hand with `{"check": true}` it runs the `check` preflight instead (./check). A first step
 * whose plan says the token route refused the credentials (`credentials.status: rejected`) fails its
 * report with that error at once, sending nothing (#core/run/credentials-check).
 */

import { sharedEncoderPool } from '#adapters/encoder-pool';
import { isExporterError } from '#core/errors';
import { refusingApi } from '#core/run/credentials-check';
import { exportReportStep } from '#core/run/export-step';
import type { ExportStepResult } from '#core/run/types';
import { API_RESERVE_MS, apiClient } from './api';
import { type CheckOutput, isCheckEvent, runCheck } from './check';
import { exportEnv } from './env';
import { exportSink } from './io';
import { ExportInputSchema } from './payloads';
import { recordStep } from './run-metrics';
import { type LambdaContext, lambdaHandler, log, logger, runtimeConfig } from './wiring';

export const handler = lambdaHandler(
  async (event: unknown, context: LambdaContext): Promise<ExportStepResult | CheckOutput> => {
    if (isCheckEvent(event)) return runCheck(event, runtimeConfig());
    const { task, checkpoint, credentials } = ExportInputSchema.parse(event);
    const config = runtimeConfig();
    const env = exportEnv();
    logger.appendKeys({ scheduleId: task.scheduleId, runId: task.runId, reportId: task.reportId });
    const started = Date.now();
    const margin = env.SAFETY_MARGIN_MS;
    // this invocation's clock, passed with the call: the step pauses by it, the API stops before it
    const timeLeftMs = () => context.getRemainingTimeInMillis();
    const result = await exportReportStep(config, task, checkpoint ?? null, {
      // the run's token was refused in Plan: the report fails with that error, nothing is sent
      api: refusingApi(apiClient(config, env.MAP_CONCURRENCY), credentials),
      sink: exportSink(env.BUCKET_NAME),
      log,
      timeLeftMs,
      apiDeadlineMs: () => timeLeftMs() - API_RESERVE_MS,
      encoder: sharedEncoderPool(),
      ...(margin !== undefined ? { tuning: { safetyMarginMs: margin } } : {}),
    }).catch((err: unknown) => {
      // Another execution holds the window: a named error the workflow retries with back-off.
      if (!isExporterError(err, 'WINDOW_BUSY')) throw err;
      const busy = new Error(err.message);
      busy.name = 'WindowBusy';
      throw busy;
    });
    // the step's own counts (rows, pages, retries) come with its result; the checkpoint stays opaque
    recordStep(result, Date.now() - started);
    return result;
  },
  { metrics: true },
);
