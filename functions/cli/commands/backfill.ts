/**
 * `backfill` — every window of the schedule whose data dates overlap --from..--to (dates in the
 * schedule's timezone, inclusive), oldest first, each an ordinary run at the occurrence that produces
 * it, with the same output options. `--dry-run` lists the windows and writes nothing; an empty
 * selection is a usage error (exit 2) saying why.
 */
import type { Command } from 'commander';
import { openCliLog } from '#adapters/cli-log';
import { loadConfig } from '#adapters/config-file';
import { validSetsOf } from '#core/config/known-metrics';
import { ExporterError } from '#core/errors';
import { findSchedule } from '#core/run/lookup';
import { backfillRuns } from '#core/run/select';
import { cliConfigCache } from '../config-cache';
import { rememberValidSets } from '../learned-metrics';
import { recordingMailer, reportSentEmails, type SentEmail } from '../sent-emails';
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
import { SUMMARIES } from './table';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function registerBackfill(program: Command): void {
  outputOptions(
    program
      .command('backfill')
      .description(SUMMARIES.backfill.description)
      .requiredOption('--schedule <id>', 'schedule id')
      .requiredOption('--from <date>', 'first data date (YYYY-MM-DD, schedule timezone)')
      .requiredOption('--to <date>', 'last data date, inclusive (YYYY-MM-DD, schedule timezone)')
      .option('--dry-run', 'list the windows the backfill would write, and write nothing'),
  ).action(async (opts: OutputOptions & { schedule: string; from: string; to: string; dryRun?: boolean }) => {
    for (const [flag, value] of [
      ['--from', opts.from],
      ['--to', opts.to],
    ] as const) {
      if (!DATE.test(value))
        throw new ExporterError('USAGE', `${flag} "${value}" is not a date (YYYY-MM-DD)`);
    }
    const config = await loadConfig(opts.config, cliConfigCache());
    const schedule = findSchedule(config, opts.schedule);
    const { runs, notYetDue } = backfillRuns(schedule, opts.from, opts.to, new Date());
    for (const r of notYetDue) {
      process.stderr.write(
        `not yet due: ${schedule.id} ${r.window.start}..${r.window.end} (its occurrence is ${r.scheduledTime}); run it after then\n`,
      );
    }
    if (runs.length === 0) throw new ExporterError('USAGE', nothingToRun(schedule, opts, notYetDue.length));
    if (opts.dryRun) {
      process.stdout.write(
        `${runs.length} window(s) of ${schedule.id} overlap ${opts.from}..${opts.to} (dry run: nothing written):\n`,
      );
      for (const r of runs) {
        process.stdout.write(`  ${r.window.start}..${r.window.end}  occurrence ${r.scheduledTime}\n`);
      }
      return;
    }
    const sink = await sinkFor(opts);
    const sent: SentEmail[] = [];
    const mailer = recordingMailer(await mailerFor(opts), sent);
    const log = await openCliLog();
    log.info('backfill', { scheduleId: schedule.id, runs: runs.length, from: opts.from, to: opts.to });
    const emailFailures: string[] = [];
    const manifests = await runAll(
      { config, sink, mailer, log, api: realApi, emailFailures, lease: leaseFor(opts), source: opts.config },
      schedule.id,
      runs.map((r) => r.scheduledTime),
      [],
    );
    reportManifests(manifests, sink, config.output.prefix);
    reportSentEmails(sent, opts);
    await rememberValidSets(opts.config, validSetsOf(manifests));
    reportEmailFailures(emailFailures);
  });
}

/** Why a backfill selected no window: none overlaps, or those that do are not due yet. */
function nothingToRun(
  schedule: { id: string; cron: string; window: string },
  opts: { from: string; to: string },
  ahead: number,
): string {
  const why =
    ahead > 0
      ? `the ${ahead} window(s) overlapping it are not due yet (listed above)`
      : `no occurrence of its cron (${schedule.cron}) has a ${schedule.window} window overlapping these dates`;
  return `nothing to backfill for ${schedule.id} ${opts.from}..${opts.to}: ${why}`;
}
