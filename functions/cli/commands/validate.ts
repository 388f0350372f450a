import { type Command, Option } from 'commander';
import { loadConfig } from '#adapters/config-file';
import { knownMetricsPath, manifestValidSets, readKnownMetrics } from '#adapters/known-metrics-file';
import { learnedNames } from '#core/config/known-metrics';
import { DOCUMENTED_METRICS, metricSuggestions, suggestionMessage } from '#core/config/metric-names';
import { describeEstimate, estimateRequests } from '#core/cost';
import { assertWithinLimits } from '#core/limits';
import { describeStack, estimateStack } from '#core/stack-limits';
import { METRICS } from '#simulator/catalog';
import { collect } from './run';

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
    .description('check the config file; exit 0, or 2 with every problem listed by path')
    .option('-c, --config <file>', 'config file', 'reports.yaml')
    .addOption(
      new Option(
        '--manifest <file|s3-url>',
        "also learn metric names from a run's manifest (a failed report's validMetrics); repeatable",
      )
        .argParser(collect)
        .default([]),
    )
    .action(async (opts: { config: string; manifest: string[] }) => {
      const config = await loadConfig(opts.config);
      assertWithinLimits(config, opts.config, { stack: true });
      const reports = config.schedules.reduce((n, s) => n + s.reports.length, 0);
      // "did you mean" also knows the names a 400 listed: those `run`/`check` kept beside the config,
      // and those of the manifests given
      const fromManifests = (await Promise.all(opts.manifest.map(manifestValidSets))).flat();
      const learned = learnedNames(await readKnownMetrics(knownMetricsPath(opts.config)), fromManifests);
      const known = knownMetricNames();
      for (const s of metricSuggestions(config, [...known, ...learned.keys()])) {
        const learnedOn = known.has(s.suggestion) ? undefined : learned.get(s.suggestion);
        process.stderr.write(`warning: ${suggestionMessage(s, learnedOn)}\n`);
      }
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
