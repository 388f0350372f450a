/**
 * `check` — the preflight before the first deploy: with the real credentials, one small page per
 * report over a short window (default yesterday, UTC), and what came back. Writes no exports; the
 * valid metric names a 400 listed are kept beside the config for `validate` (`../learned-metrics`).
 */
import type { Command } from 'commander';
import { loadConfig } from '#adapters/config-file';
import { createApiClient } from '#core/api/client';
import { apiOptionsOf } from '#core/api/from-config';
import type { ValidSet } from '#core/config/known-metrics';
import { describeEstimate, estimateRequests } from '#core/cost';
import { ExporterError } from '#core/errors';
import { checkReport, describeCheck } from '#core/run/check';
import { findSchedule } from '#core/run/lookup';
import { createHttp } from '#http';
import { cliConfigCache } from '../config-cache';
import { rememberValidSets } from '../learned-metrics';
import { credentialsProvider } from '../on-demand';
import { SUMMARIES } from './table';

const RANGE = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/;
/** Rows asked for per report: enough to see fields and a cursor, small enough to be quick. */
export const CHECK_PAGE_SIZE = 5;

function parseWindow(value: string | undefined, now: Date): { start: string; end: string; timezone: string } {
  if (value === undefined) {
    const day = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
    return { start: day, end: day, timezone: 'UTC' };
  }
  const m = RANGE.exec(value);
  if (!m || (m[1] ?? '') > (m[2] ?? '')) {
    throw new ExporterError(
      'USAGE',
      `--window "${value}" is not START..END (YYYY-MM-DD..YYYY-MM-DD, start ≤ end)`,
    );
  }
  return { start: m[1] ?? '', end: m[2] ?? '', timezone: 'UTC' };
}

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description(SUMMARIES.check.description)
    .option('-c, --config <file>', 'config file', 'reports.yaml')
    .option('--schedule <id>', 'only the reports of this schedule (default: all)')
    .option(
      '--window <start..end>',
      'dates to ask for, e.g. 2026-11-01..2026-11-02 (default: yesterday, UTC)',
    )
    .action(async (opts: { config: string; schedule?: string; window?: string }) => {
      const config = await loadConfig(opts.config, cliConfigCache());
      const window = parseWindow(opts.window, new Date());
      const schedules = opts.schedule ? [findSchedule(config, opts.schedule)] : config.schedules;
      const credentials = credentialsProvider(config.api.credentialsSecret);
      // missing credentials are named once (exit 2), not once per report
      await credentials();
      const clientFor = (arrayFormat: 'repeat' | 'comma' | 'brackets') =>
        createApiClient({
          ...apiOptionsOf(config.api),
          arrayFormat,
          pageSize: CHECK_PAGE_SIZE,
          maxRetries: Math.min(config.api.maxRetries, 2),
          http: createHttp,
          credentials,
        });
      process.stdout.write(`checking ${config.api.baseUrl} for ${window.start}..${window.end}\n`);
      let problems = 0;
      const validSets: ValidSet[] = [];
      for (const schedule of schedules) {
        process.stdout.write(`${schedule.id}\n`);
        for (const report of schedule.reports) {
          const result = await checkReport(config, report, window, clientFor);
          if (!result.ok) problems += 1;
          if (result.validMetrics) validSets.push({ route: report.route, names: result.validMetrics });
          process.stdout.write(`  ${describeCheck(result, config.api.arrayFormat).replace(/\n/g, '\n  ')}\n`);
        }
        // what a scheduled run will cost, lookback included (the same estimate `validate` prints)
        process.stdout.write(`  ${describeEstimate(estimateRequests(schedule), config.api.pageSize)}\n`);
      }
      await rememberValidSets(opts.config, validSets);
      process.stdout.write(problems === 0 ? 'all reports ok\n' : `${problems} report(s) need attention\n`);
      if (problems > 0) process.exitCode = 1;
    });
}
