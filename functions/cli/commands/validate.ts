import { type Command, Option } from 'commander';
import { readConfigText } from '#adapters/config-file';
import { knownMetricsPath, manifestValidSets, readKnownMetrics } from '#adapters/known-metrics-file';
import {
  type KnownMetricsFile,
  learnedNames,
  unlistedMessage,
  unlistedMetrics,
} from '#core/config/known-metrics';
import { parseConfig, readConfigData } from '#core/config/load';
import {
  DOCUMENTED_METRICS,
  type MetricLists,
  metricListsOf,
  metricSuggestions,
  suggestionMessage,
} from '#core/config/metric-names';
import type { Config } from '#core/config/schema';
import { describeEstimate, estimateRequests } from '#core/cost';
import { ExporterError } from '#core/errors';
import { assertWithinLimits } from '#core/limits';
import { describeStack, estimateStack } from '#core/stack-limits';
import { METRICS } from '#simulator/catalog';
import { collect } from './run';
import { SUMMARIES } from './table';

/**
 * The metric names `validate` compares against for "did you mean": the names the API document lists
 * and those of the simulator's catalogue. (The names an earlier 400 listed are added per config.)
 */
export function knownMetricNames(): Set<string> {
  return new Set([...DOCUMENTED_METRICS, ...METRICS.keys()]);
}

export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description(SUMMARIES.validate.description)
    .option('-c, --config <file>', 'config file', 'reports.yaml')
    .addOption(
      new Option(
        '--manifest <file|s3-url>',
        "also learn metric names from a run's manifest (a failed report's validMetrics); repeatable",
      )
        .argParser(collect)
        .default([]),
    )
    .option(
      '--strict',
      'also fail (exit 2) on a metric the API itself left out of the valid set it listed for the route (kept by run/check)',
    )
    .action(async (opts: { config: string; manifest: string[]; strict?: boolean }) => {
      const text = await readConfigText(opts.config);
      let config: Config | undefined;
      let problem: ExporterError | undefined;
      try {
        config = parseConfig(text, opts.config);
        assertWithinLimits(config, opts.config, { stack: true });
      } catch (err: unknown) {
        if (!(err instanceof ExporterError) || err.code !== 'CONFIG_INVALID') throw err;
        problem = err;
      }
      // the hints are given whether or not the config has problems: one pass says everything
      const lists = config ?? metricListsOf(readConfigData(text));
      const saved = await readKnownMetrics(knownMetricsPath(opts.config));
      const unlisted = unlistedMetrics(lists, saved);
      const hints = await metricHints(lists, saved, opts.manifest);
      if (problem) process.stderr.write(`error: ${problem.message}\n`);
      if (opts.strict) {
        for (const u of unlisted) process.stderr.write(`error: ${unlistedMessage(u)}\n`);
      } else {
        for (const u of unlisted)
          process.stderr.write(`warning: ${unlistedMessage(u)} (--strict makes this an error)\n`);
      }
      for (const h of hints) process.stderr.write(`warning: ${h}\n`);
      if (problem || !config || (opts.strict && unlisted.length > 0)) {
        process.exitCode = 2;
        return;
      }
      const reports = config.schedules.reduce((n, sc) => n + sc.reports.length, 0);
      process.stdout.write(
        `${opts.config} is valid: ${config.schedules.length} schedule(s), ${reports} report(s)\n`,
      );
      process.stdout.write(`  ${describeStack(estimateStack(config))}\n`);
      // The cost of lookback, up front: requests per run grow with lookback + 1.
      for (const schedule of config.schedules) {
        process.stdout.write(`  ${describeEstimate(estimateRequests(schedule), config.api.pageSize)}\n`);
      }
    });
}

/**
 * "Did you mean" lines: names close to the documented ones, the simulator's, and those a 400 listed
 * (kept beside the config by `run`/`check`, and in the manifests given).
 */
async function metricHints(
  lists: MetricLists,
  saved: KnownMetricsFile | null,
  manifests: readonly string[],
): Promise<string[]> {
  const fromManifests = (await Promise.all(manifests.map(manifestValidSets))).flat();
  const learned = learnedNames(saved, fromManifests);
  const known = knownMetricNames();
  return metricSuggestions(lists, [...known, ...learned.keys()]).map((s) =>
    suggestionMessage(s, known.has(s.suggestion) ? undefined : learned.get(s.suggestion)),
  );
}
