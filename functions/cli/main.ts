/**
 * `report-exporter` — the command line (docs/export.md, "Commands"). Each command lives in its own file under
 * `commands/` and registers itself on the program. Exit codes: 0 ok, 1 a report failed, 2 usage or
 * config error, 3 every report succeeded but one carries a silent-loss warning (`commands/run.ts`).
 */
import { Command, CommanderError } from 'commander';
import { ExporterError } from '#core/errors';
import pkg from '../../package.json' with { type: 'json' };
import { registerFor, startsWorker } from './commands/table';

// The AWS SDK warns on every command under Node 20 that its releases after January 2027 will need
// Node 22. Node 20 is supported here (package.json engines; README), so the notice is one a user
// cannot act on; setting the variable to "false" brings it back.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const program = new Command('report-exporter')
  .description('Export the Reporting API v2 to CSV and Parquet on S3 or a folder, with an emailed summary.')
  .version(pkg.version, '-V, --version', 'print the version and exit')
  .showHelpAfterError()
  .exitOverride();

// An export's encoder worker (where the host has one: more than two cores) starts first, on another
// core, while this thread loads the command, the config and the first page: it needs ~0.1–0.2 s to
// load its code (docs/performance.md, "Start"). A bad REPORT_EXPORTER_ENCODER_WORKERS is reported by
// the command, which asks for the pool again.
if (startsWorker(process.argv))
  void import('#adapters/encoder-pool').then((m) => m.sharedEncoderPool().prestart()).catch(() => undefined);

// each command's file is read only when the command line needs it (commands/table.ts)
await registerFor(program, process.argv);

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
