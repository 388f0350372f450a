import type { Command } from 'commander';
import { loadConfig } from '#adapters/config-file';
import { DOCUMENTED_METRICS, metricSuggestions, suggestionMessage } from '#core/config/metric-names';
import { assertPayloadsFit } from '#core/run/payload-estimate';
import { METRICS } from '#simulator/catalog';

/**
 * The metric names `validate` compares against for "did you mean": the names the API document lists
 * and those of the simulator's catalogue.
 */
export function knownMetricNames(): Set<string> {
  return new Set([...DOCUMENTED_METRICS, ...METRICS.keys()]);
}

export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check the config file; exit 0, or 2 with every problem listed by path')
    .option('-c, --config <file>', 'config file', 'reports.yaml')
    .action(async (opts: { config: string }) => {
      const config = await loadConfig(opts.config);
      assertPayloadsFit(config, opts.config);
      const reports = config.schedules.reduce((n, s) => n + s.reports.length, 0);
      for (const s of metricSuggestions(config, knownMetricNames())) {
        process.stderr.write(`warning: ${suggestionMessage(s)}\n`);
      }
      process.stdout.write(
        `${opts.config} is valid: ${config.schedules.length} schedule(s), ${reports} report(s)\n`,
      );
    });
}
