/**
 * `report-exporter` — the command line (docs/export.md, "Commands"). Each command lives in its own file under
 * `commands/` and registers itself on the program. Exit codes: 0 ok, 1 a report failed, 2 usage or
 * config error, 3 every report succeeded but one carries a silent-loss warning (`commands/run.ts`).
 */
import { Command, CommanderError } from 'commander';
import { ExporterError } from '#core/errors';
import pkg from '../../package.json' with { type: 'json' };

// The AWS SDK warns on every command under Node 20 that its releases after January 2027 will need
// Node 22. Node 20 is supported here (package.json engines; README), so the notice is one a user
// cannot act on; setting the variable to "false" brings it back.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const program = new Command('report-exporter')
  .description('Export the Reporting API v2 to CSV and Parquet on S3 or a folder, with an emailed summary.')
  .version(pkg.version, '-V, --version', 'print the version and exit')
  .showHelpAfterError()
  .exitOverride();

/**
 * The commands in the order help lists them, each file loaded when registered. A command line that
 * names a command loads that command's file alone (the simulator, the email renderer or the JSON
 * Schema of the others are not read: docs/performance.md, "Start"); anything else (`--help`, `help`, a
 * mistyped command commander suggests a name for) registers them all.
 */
const COMMANDS: Record<string, () => Promise<(program: Command) => void>> = {
  demo: async () => (await import('./commands/demo')).registerDemo,
  validate: async () => (await import('./commands/validate')).registerValidate,
  check: async () => (await import('./commands/check')).registerCheck,
  'migrate-v1': async () => (await import('./commands/migrate-v1')).registerMigrateV1,
  run: async () => (await import('./commands/run')).registerRun,
  backfill: async () => (await import('./commands/backfill')).registerBackfill,
  simulate: async () => (await import('./commands/simulate')).registerSimulate,
};
const named = process.argv[2];
const registers = await Promise.all(
  (named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS)).map((name) =>
    (COMMANDS[name] as () => Promise<(program: Command) => void>)(),
  ),
);
for (const register of registers) register(program);

/** Errors of the setup, found before any report starts: exit 2. */
const USAGE_CODES = new Set<string>(['CONFIG_INVALID', 'CONFIG_NOT_FOUND', 'USAGE', 'CREDENTIALS_MISSING']);

try {
  await program.parseAsync(process.argv);
} catch (err: unknown) {
  process.exitCode = exitCodeFor(err);
}

function exitCodeFor(err: unknown): number {
  if (err instanceof CommanderError) {
    // help and version are not errors; anything else commander rejects is a usage error
    return err.exitCode === 0 ? 0 : 2;
  }
  if (err instanceof ExporterError) {
    process.stderr.write(`error: ${err.message}\n`);
    return USAGE_CODES.has(err.code) ? 2 : 1;
  }
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
}
