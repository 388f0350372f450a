/**
 * `backfill` — every occurrence of the schedule's cron between --from and --to (dates in the
 * schedule's timezone, inclusive), oldest first, each an ordinary run with the same output options.
 */
import type { Command } from 'commander';
import { createCliLog } from '#adapters/cli-log';
import { loadConfig } from '#adapters/config-file';
import { validSetsOf } from '#core/config/known-metrics';
import { ExporterError } from '#core/errors';
import { occurrences } from '#core/occurrences';
import { findSchedule } from '#core/run/lookup';
import { rememberValidSets } from '../learned-metrics';
import {
  leaseFor,
  mailerFor,
  type OutputOptions,
  outputOptions,
  realApi,
  reportEmailFailures,
  reportManifests,
  runAll,
  sinkFor,
} from './run';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function registerBackfill(program: Command): void {
  outputOptions(
    program
      .command('backfill')
      .description(
        "every occurrence of the schedule's cron in a date range, oldest first, each an ordinary run",
      )
      .requiredOption('--schedule <id>', 'schedule id')
      .requiredOption('--from <date>', 'first date (YYYY-MM-DD, schedule timezone)')
      .requiredOption('--to <date>', 'last date, inclusive (YYYY-MM-DD, schedule timezone)'),
  ).action(async (opts: OutputOptions & { schedule: string; from: string; to: string }) => {
    for (const [flag, value] of [
      ['--from', opts.from],
      ['--to', opts.to],
    ] as const) {
      if (!DATE.test(value))
        throw new ExporterError('USAGE', `${flag} "${value}" is not a date (YYYY-MM-DD)`);
    }
    const sink = sinkFor(opts);
    const mailer = mailerFor(opts);
    const config = await loadConfig(opts.config);
    const schedule = findSchedule(config, opts.schedule);
    const times = occurrences(schedule.cron, schedule.timezone, opts.from, opts.to).map((d) =>
      d.toISOString(),
    );
    const log = createCliLog();
    log.info('backfill', { scheduleId: schedule.id, runs: times.length, from: opts.from, to: opts.to });
    const emailFailures: string[] = [];
    const manifests = await runAll(
      { config, sink, mailer, log, api: realApi, emailFailures, lease: leaseFor(opts), source: opts.config },
      schedule.id,
      times,
      [],
    );
    reportManifests(manifests, sink, config.output.prefix);
    await rememberValidSets(opts.config, validSetsOf(manifests));
    reportEmailFailures(emailFailures);
  });
}
