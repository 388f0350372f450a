/**
 * `demo` — the first command to try: starts the built-in v2 simulator on a free loopback port, runs
 * both schedules of the shipped example config (`reports.yaml`, every route) at their two latest
 * occurrences (so the emails show real changes against the earlier window) into `--out` (default
 * `./out`), writes the latest run's summary emails — stakeholders' and operators' — into
 * `out/outbox/` (replacing an earlier demo's), and prints where everything is. No AWS, no network; the simulator's credentials are
 * never printed.
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { openCliLog } from '#adapters/cli-log';
import { createFsSink } from '#adapters/fs-sink';
import { createApiClient } from '#core/api/client';
import { apiOptionsOf } from '#core/api/from-config';
import { parseConfig } from '#core/config/load';
import type { Config } from '#core/config/schema';
import type { Manifest } from '#core/manifest';
import { occurrences } from '#core/occurrences';
import { createHttp } from '#http';
import { startSimulator } from '#simulator/server';
import { outboxMailer } from '../on-demand';
import { type ApiFactory, reportManifests, runAll } from './run';
import { SUMMARIES } from './table';

/**
 * The shipped example config: `reports.yaml` at the package's root, the first folder above this module
 * with a package.json — three levels up from this source, one from the CLI's bundle (`dist/cli.mjs`).
 */
function exampleConfig(): URL {
  let dir = new URL('./', import.meta.url);
  while (!existsSync(new URL('package.json', dir)) && dir.pathname !== '/') dir = new URL('../', dir);
  return new URL('reports.yaml', dir);
}

/**
 * The two latest occurrences of a schedule at or before `now` (looking back 80 days), oldest first:
 * the first run gives the second one something to compare with.
 */
export function latestTwo(cron: string, timezone: string, now: Date): string[] {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const from = day(new Date(now.getTime() - 80 * 86_400_000));
  const past = occurrences(cron, timezone, from, day(now)).filter((d) => d <= now);
  return past.slice(-2).map((d) => d.toISOString());
}

export interface DemoResult {
  readonly manifests: Manifest[];
  readonly outDir: string;
  readonly prefix: string;
}

/** Runs the demo into `outDir`; used by the command and by its end-to-end test. */
export async function runDemo(outDir: string, now = new Date()): Promise<DemoResult> {
  const sim = await startSimulator({ seed: 1 });
  try {
    const example = parseConfig(await readFile(exampleConfig(), 'utf8'), 'reports.yaml');
    const config: Config = { ...example, api: { ...example.api, baseUrl: sim.baseUrl } };
    const sink = createFsSink(outDir);
    // the outbox shows this demo's emails only: an earlier demo's would be numbered before them
    await rm(join(outDir, 'outbox'), { recursive: true, force: true });
    const mailer = await outboxMailer(join(outDir, 'outbox'));
    const log = await openCliLog();
    const api: ApiFactory = (c, l) =>
      createApiClient({
        ...apiOptionsOf(c.api),
        http: createHttp,
        credentials: async () => sim.credentials,
        log: l,
      });
    const manifests: Manifest[] = [];
    for (const schedule of config.schedules) {
      const [earlier, latest] = latestTwo(schedule.cron, schedule.timezone, now);
      // The earlier window only sets the baseline: its email would say "no earlier run".
      if (earlier && latest) {
        manifests.push(
          ...(await runAll({ config, sink, mailer: null, log, api }, schedule.id, [earlier], [])),
        );
      }
      const last = latest ?? earlier ?? now.toISOString();
      manifests.push(...(await runAll({ config, sink, mailer, log, api }, schedule.id, [last], [])));
    }
    return { manifests, outDir: resolve(outDir), prefix: config.output.prefix };
  } finally {
    await sim.close();
  }
}

/** One line per folder: `exports/s/r/parquet/dt=…/  part-00000.parquet, _SUCCESS`. */
function tree(keys: readonly string[]): string[] {
  const folders = new Map<string, string[]>();
  for (const k of keys) {
    const cut = k.lastIndexOf('/') + 1;
    const list = folders.get(k.slice(0, cut)) ?? [];
    list.push(k.slice(cut));
    folders.set(k.slice(0, cut), list);
  }
  return [...folders].map(([folder, files]) => `${folder.padEnd(66)} ${files.join(', ')}`);
}

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description(SUMMARIES.demo.description)
    .option('--out <dir>', 'output folder', 'out')
    .action(async (opts: { out: string }) => {
      const { manifests, outDir, prefix } = await runDemo(opts.out);
      const sink = createFsSink(outDir);
      reportManifests(manifests, sink, prefix);
      const keys = await sink.list('');
      const shown = (k: string) => relative(process.cwd(), join(outDir, k)) || k;
      process.stdout.write(`\nWritten under ${shown('') || '.'}/ :\n`);
      for (const line of tree(keys.filter((k) => !k.startsWith('outbox/'))))
        process.stdout.write(`  ${line}\n`);
      process.stdout.write('\nSummary emails (open the .html in a browser, the .eml in a mail client):\n');
      for (const k of keys.filter((k) => k.startsWith('outbox/'))) process.stdout.write(`  ${shown(k)}\n`);
      const parquet = keys.find((k) => k.endsWith('.parquet'));
      if (parquet) {
        process.stdout.write(
          `\nRead Parquet with DuckDB, e.g.:\n  duckdb -c "SELECT * FROM '${shown(parquet)}' LIMIT 5"\n` +
            `or all parts of a report: SELECT count(*) FROM '${shown(parquet).replace(/part-\d+\.parquet$/, '*.parquet')}'\n`,
        );
      }
    });
}
