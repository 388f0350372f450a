/**
 * `{"check": true}` sent to the Export Lambda: the `report-exporter check` preflight run inside the
 * deployed stack, with the Lambda's own network path, secret and config. It writes nothing, so it
 * needs no permission the Export Lambda does not already have (the secret, the network).
 */
import * as z from 'zod/mini';
import { createCredentialsProvider } from '#adapters/credentials';
import { createApiClient } from '#core/api/client';
import { apiOptionsOf } from '#core/api/from-config';
import type { Config } from '#core/config/schema';
import { type CheckResult, checkReport } from '#core/run/check';
import { createHttp } from '#http';

export const CheckEventSchema = z.object({
  check: z.literal(true),
  /** Only this schedule's reports (default: all). */
  scheduleId: z.optional(z.string()),
  /** Dates to ask for (default: yesterday, UTC). */
  window: z.optional(z.object({ start: z.iso.date(), end: z.iso.date() })),
});

export function isCheckEvent(event: unknown): boolean {
  return typeof event === 'object' && event !== null && (event as { check?: unknown }).check === true;
}

export interface CheckOutput {
  readonly ok: boolean;
  readonly window: { start: string; end: string };
  readonly reports: readonly (CheckResult & { scheduleId: string })[];
}

export async function runCheck(event: unknown, config: Config): Promise<CheckOutput> {
  const input = CheckEventSchema.parse(event);
  const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const window = { start: input.window?.start ?? day, end: input.window?.end ?? day, timezone: 'UTC' };
  const credentials = createCredentialsProvider(config.api.credentialsSecret);
  const clientFor = (arrayFormat: 'repeat' | 'comma' | 'brackets') =>
    createApiClient({
      ...apiOptionsOf(config.api),
      arrayFormat,
      pageSize: 5,
      maxRetries: Math.min(config.api.maxRetries, 2),
      http: createHttp,
      credentials,
    });
  const reports: (CheckResult & { scheduleId: string })[] = [];
  for (const schedule of config.schedules) {
    if (input.scheduleId !== undefined && schedule.id !== input.scheduleId) continue;
    for (const report of schedule.reports) {
      reports.push({ scheduleId: schedule.id, ...(await checkReport(config, report, window, clientFor)) });
    }
  }
  return { ok: reports.every((r) => r.ok), window: { start: window.start, end: window.end }, reports };
}
