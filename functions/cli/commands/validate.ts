import type { Command } from 'commander';
import { loadConfig } from '#adapters/config-file';
import { assertPayloadsFit } from '#core/run/payload-estimate';

export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check the config file; exit 0, or 2 with every problem listed by path')
    .option('-c, --config <file>', 'config file', 'reports.yaml')
    .action(async (opts: { config: string }) => {
      const config = await loadConfig(opts.config);
      assertPayloadsFit(config, opts.config);
      const reports = config.schedules.reduce((n, s) => n + s.reports.length, 0);
      process.stdout.write(
        `${opts.config} is valid: ${config.schedules.length} schedule(s), ${reports} report(s)\n`,
      );
    });
}
