/**
 * `run` — one run of a schedule: its latest occurrence at or before now, or the one `--at` names; plus the wiring shared with
 * `backfill` and `demo`: output options → sink, email options → mailer, config → API client.
 */
import { randomUUID } from 'node:crypto';
import { type Command, Option } from 'commander';
import { Settings } from 'luxon';
import { type CliLog, openCliLog } from '#adapters/cli-log';
import { loadConfig } from '#adapters/config-file';
import { sharedEncoderPool } from '#adapters/encoder-pool';
import { createFsSink } from '#adapters/fs-sink';
import { leanHeap } from '#adapters/lean-heap';
import { processOwner } from '#adapters/process-owner';
import { createApiClient } from '#core/api/client';
import { apiOptionsOf } from '#core/api/from-config';
import type { ReportingApi } from '#core/api/types';
import { CLI_LEASE, type LeaseOptions } from '#core/commit/lease';
import { validSetsOf } from '#core/config/known-metrics';
import type { Config } from '#core/config/schema';
import type { Mailer } from '#core/email/types';
import { describeError, ExporterError } from '#core/errors';
import { assertWithinLimits } from '#core/limits';
import type { Log } from '#core/log';
import type { Manifest } from '#core/manifest';
import { findReport, findSchedule } from '#core/run/lookup';
import { runSchedule } from '#core/run/run';
import { selectRun } from '#core/run/select';
import type { RunDeps } from '#core/run/types';
import type { Sink } from '#core/sink';
import { computeWindow } from '#core/window';
import { createHttp } from '#http';
import { cliConfigCache } from '../config-cache';
import { rememberValidSets } from '../learned-metrics';
import { credentialsProvider, outboxMailer, s3Sink, sesMailer, ssmParameterReader } from '../on-demand';
import { recordingMailer, reportSentEmails, type SentEmail } from '../sent-emails';
import { SUMMARIES } from './table';

// The exporter's dates are machine text (yyyy-MM-dd, ISO instants), never a locale's. Without a
// locale luxon asks ICU for the system's on its first date (Intl.DateTimeFormat: ~15 ms of a run's
// start, loading locale data); with one it formats its digits itself, exactly as before.
Settings.defaultLocale = 'en-US';

export type ApiFactory = (config: Config, log: Log) => ReportingApi;

/** The one API client of a CLI process; credentials from the env override or Secrets Manager. */
export const realApi: ApiFactory = (config, log) =>
  createApiClient({
    ...apiOptionsOf(config.api),
    http: createHttp,
    credentials: credentialsProvider(config.api.credentialsSecret),
    log,
  });

export interface OutputOptions {
  readonly bucket?: string;
  readonly out?: string;
  readonly emailDir?: string;
  /** `--send-email`: send the summary through SES (never by default). */
  readonly sendEmail?: boolean;
  /** commander's `--no-email` sets this to false (kept for old scripts; no email is the default). */
  readonly email?: boolean;
  /** Seconds to wait for another run holding the same window (`--lease-wait`). */
  readonly leaseWait?: string;
  readonly config: string;
}

/** Adds the output and email options shared by `run` and `backfill`. */
export function outputOptions(cmd: Command): Command {
  return cmd
    .option('--bucket <name>', 'write to this S3 bucket')
    .option('--out <dir>', 'write to this local folder (same key layout as S3)')
    .option('--email-dir <dir>', 'write the summary emails as .eml and .html files into this folder')
    .option('--send-email', "send the summary emails through SES to the schedule's recipients and operators")
    .option('--no-email', 'send no summary email (the default; kept for old scripts)')
    .option(
      '--lease-wait <seconds>',
      'when another run is writing the same window, wait this long for it before stopping',
      String(CLI_LEASE.waitMs / 1000),
    )
    .option('-c, --config <file>', 'config file', 'reports.yaml');
}

export async function sinkFor(opts: OutputOptions): Promise<Sink> {
  if ((opts.bucket === undefined) === (opts.out === undefined)) {
    throw new ExporterError('USAGE', 'give exactly one of --bucket NAME or --out DIR');
  }
  return opts.bucket !== undefined ? await s3Sink(opts.bucket) : createFsSink(opts.out ?? '.');
}

/**
 * The mailer the email options ask for: SES only with `--send-email`, files with `--email-dir`, none
 * otherwise, so a local test never emails anyone by accident.
 */
export async function mailerFor(opts: OutputOptions): Promise<Mailer | null> {
  const chosen = [
    opts.emailDir !== undefined && '--email-dir',
    opts.sendEmail === true && '--send-email',
    opts.email === false && '--no-email',
  ].filter((x): x is string => x !== false);
  if (chosen.length > 1) throw new ExporterError('USAGE', `${chosen.join(' and ')} cannot be used together`);
  if (opts.emailDir !== undefined) return await outboxMailer(opts.emailDir);
  return opts.sendEmail === true ? await sesMailer() : null;
}

/** The CLI's lease: `--lease-wait` seconds of waiting, this process as the owner. */
export function leaseFor(opts: OutputOptions): LeaseOptions {
  const seconds = Number(opts.leaseWait ?? CLI_LEASE.waitMs / 1000);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 86_400) {
    throw new ExporterError('USAGE', `--lease-wait "${opts.leaseWait}" is not a number of seconds (0–86400)`);
  }
  return { ...CLI_LEASE, waitMs: seconds * 1000, owner: processOwner() };
}

export interface RunContext {
  readonly config: Config;
  /** How this process holds a window's lease (default: the CLI's, 30 s of waiting). */
  readonly lease?: LeaseOptions;
  readonly sink: Sink;
  readonly mailer: Mailer | null;
  readonly log: CliLog;
  readonly api: ApiFactory;
  /**
   * When given, a run whose email failed (its data and manifest are written) is still returned, and
   * the reason is added here; otherwise its `emailError` (EMAIL_FAILED) is thrown.
   */
  readonly emailFailures?: string[];
  /** The config's file name, for messages. Default `reports.yaml`. */
  readonly source?: string;
}

/**
 * Runs schedule occurrences one after another; returns their manifests. A config the deployment would
 * refuse (`#core/limits`) is refused here too, before anything is fetched; a report asked for twice
 * runs once.
 */
export async function runAll(
  ctx: RunContext,
  scheduleId: string,
  times: readonly string[],
  asked: readonly string[],
): Promise<Manifest[]> {
  const schedule = findSchedule(ctx.config, scheduleId);
  const reportIds = [...new Set(asked)];
  for (const id of reportIds) findReport(schedule, id);
  assertWithinLimits(ctx.config, ctx.source);
  // the main thread's old generation collected at +70 % from the first second on (#adapters/lean-heap)
  leanHeap();
  const api = ctx.api(ctx.config, ctx.log);
  const manifests: Manifest[] = [];
  try {
    // the output and the credentials first: a problem with either is named once, and no run (no
    // manifest) is started
    await ctx.sink.ready?.();
    await api.ready?.();
    for (const scheduledTime of times) {
      const n = reportIds.length || schedule.reports.length;
      const w = computeWindow(schedule.window, scheduledTime, schedule.timezone);
      ctx.log.startRun(`${scheduleId} ${w.start}..${w.end}`, n);
      const deps: RunDeps = {
        api,
        sink: ctx.sink,
        mailer: ctx.mailer,
        ...(ctx.mailer ? { readParameter: ssmParameterReader() } : {}),
        log: ctx.log,
        now: () => new Date(),
        newRunId: randomUUID,
        onProgress: (p) => ctx.log.progress(p),
        lease: ctx.lease ?? { ...CLI_LEASE, owner: processOwner() },
        encoder: sharedEncoderPool(),
      };
      const request = {
        scheduleId,
        scheduledTime,
        ...(reportIds.length ? { reportIds: [...reportIds] } : {}),
      };
      try {
        const { manifest, emailError } = await runSchedule(ctx.config, request, deps);
        if (emailError) {
          if (!ctx.emailFailures) throw emailError;
          ctx.emailFailures.push(
            `${scheduleId} ${manifest.window.start}..${manifest.window.end}: ${describeError(emailError)}`,
          );
        }
        manifests.push(manifest);
      } finally {
        ctx.log.stop();
      }
    }
  } finally {
    await api.close();
  }
  return manifests;
}

/** After the result lines: each email that failed, to stderr, and exit code 1. */
export function reportEmailFailures(failures: readonly string[]): void {
  for (const f of failures) process.stderr.write(`email not sent: ${f}\n`);
  if (failures.length > 0) process.exitCode = 1;
}

/** Exit code of a run whose reports all succeeded but with silent-loss warnings. */
export const EXIT_WARNINGS = 3;

/**
 * One line per report, to stdout, then a line per warning, then one per earlier window re-exported
 * (lookback); sets exit code 1 when any report failed (a re-export included), else 3 when any report
 * carries warnings (the data may be incomplete although nothing failed).
 */
export function reportManifests(manifests: readonly Manifest[], sink: Sink, prefix: string): void {
  for (const m of manifests) {
    process.stdout.write(`${m.scheduleId} ${m.window.start}..${m.window.end}: ${m.status}\n`);
    for (const r of m.reports) {
      const what =
        r.status === 'succeeded' ? `${r.rowCount} rows, ${r.files.length} files` : `FAILED: ${r.error ?? ''}`;
      const warned = r.warnings?.length ? ` — ${r.warnings.length} WARNING(S)` : '';
      process.stdout.write(`  ${r.reportId.padEnd(20)} ${what}${warned}\n`);
      for (const w of r.warnings ?? []) process.stdout.write(`    WARNING ${w.code}: ${w.message}\n`);
    }
    process.stdout.write(
      `  manifest: ${sink.locate(`${prefix}${m.scheduleId}/_manifests/dt=${m.window.end}/manifest.json`)}\n`,
    );
    for (const w of m.restated ?? []) {
      const failed = w.reports.filter((r) => r.status === 'failed');
      const what = failed.length
        ? `FAILED for ${failed.map((r) => r.reportId).join(', ')} (earlier export stands)`
        : `${w.reports.length} report(s) replaced`;
      process.stdout.write(`  re-exported ${w.window.start}..${w.window.end}: ${what}\n`);
      if (failed.length) process.exitCode = 1;
    }
    if (m.status !== 'succeeded') process.exitCode = 1;
    else if (process.exitCode !== 1 && m.reports.some((r) => r.warnings?.length)) {
      process.exitCode = EXIT_WARNINGS;
    }
  }
}

export function registerRun(program: Command): void {
  outputOptions(
    program
      .command('run')
      .description(SUMMARIES.run.description)
      .requiredOption('--schedule <id>', 'schedule id')
      .option(
        '--at <date-or-time>',
        "that day's occurrence (YYYY-MM-DD, schedule timezone) or this scheduled time (ISO-8601; without an offset in the schedule timezone)",
      )
      .addOption(new Option('--report <id>', 'only this report (repeatable)').argParser(collect).default([])),
  ).action(async (opts: OutputOptions & { schedule: string; at?: string; report: string[] }) => {
    const sink = await sinkFor(opts);
    const sent: SentEmail[] = [];
    const mailer = recordingMailer(await mailerFor(opts), sent);
    const config = await loadConfig(opts.config, cliConfigCache());
    const schedule = findSchedule(config, opts.schedule);
    const selected = selectRun(schedule, opts.at, new Date());
    process.stderr.write(
      `${schedule.id}: occurrence ${selected.scheduledTime} (cron ${schedule.cron}, ${schedule.timezone}), window ${selected.window.start}..${selected.window.end}\n`,
    );
    const log = await openCliLog();
    const emailFailures: string[] = [];
    const manifests = await runAll(
      { config, sink, mailer, log, api: realApi, emailFailures, lease: leaseFor(opts), source: opts.config },
      opts.schedule,
      [selected.scheduledTime],
      opts.report,
    );
    reportManifests(manifests, sink, config.output.prefix);
    reportSentEmails(sent, opts);
    await rememberValidSets(opts.config, validSetsOf(manifests));
    reportEmailFailures(emailFailures);
  });
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
