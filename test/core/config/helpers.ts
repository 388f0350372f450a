import { validateConfig } from '#core/config/load';
import type { Config } from '#core/config/schema';
import { ExporterError } from '#core/errors';

/** A minimal valid config as a plain object; tests mutate a fresh copy. */
export function baseConfig(): Record<string, unknown> & {
  api: Record<string, unknown>;
  schedules: (Record<string, unknown> & { reports: Record<string, unknown>[] })[];
} {
  return {
    api: { baseUrl: 'https://reporting.example.com', credentialsSecret: 'reporting/v2/client' },
    schedules: [
      {
        id: 'weekly',
        cron: '0 8 ? * MON *',
        window: 'last-7-days',
        reports: [{ id: 'campaigns', route: 'campaigns/performance', metrics: ['likes', 'comments'] }],
      },
    ],
  };
}

/** A config with its only report replaced. */
export function withReport(report: Record<string, unknown>): ReturnType<typeof baseConfig> {
  const config = baseConfig();
  const schedule = config.schedules[0];
  if (schedule) schedule.reports = [{ id: 'r', ...report }];
  return config;
}

/** The path-named problems `validateConfig` lists, or [] when the config is valid. */
export function problemsOf(value: unknown): string[] {
  try {
    validateConfig(value);
    return [];
  } catch (err: unknown) {
    if (err instanceof ExporterError && err.code === 'CONFIG_INVALID') {
      return (err.details as { problems: string[] }).problems;
    }
    throw err;
  }
}

export function valid(value: unknown): Config {
  return validateConfig(value);
}

export const REPORT = 'schedules[0].reports[0]';
