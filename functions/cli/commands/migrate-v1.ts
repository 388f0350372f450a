import type { Command } from 'commander';
import { migrateV1Url } from '#core/config/migrate';
import { SUMMARIES } from './table';

export function registerMigrateV1(program: Command): void {
  program
    .command('migrate-v1')
    .description(SUMMARIES['migrate-v1'].description)
    .argument('<url...>', 'v1 request URLs, e.g. https://api.example.com/v1/reporting/campaign/performance?…')
    .action((urls: string[]) => {
      // Migrate all first, so a bad URL exits 2 before anything half-useful is printed.
      const snippets = urls.map((url) => migrateV1Url(url).yaml);
      process.stdout.write(`# paste under a schedule's "reports:" (indent to match)\n${snippets.join('\n')}`);
    });
}
