/**
 * The CLI's commands, in the order help lists them, and how `main.ts` registers them without reading
 * more than it needs (docs/performance.md, "Start"):
 * - a command line naming a command loads that command's file alone;
 * - one naming none (`--help`, `-V`, no arguments, an unknown option) gets each command's one-line
 *   entry only (`SUMMARIES`: the program's help lists nothing else), so it reads commander and this
 *   file, not the config schema, undici, yaml or luxon that the commands import;
 * - anything else (`help run`, a mistyped command commander suggests a name for) registers them all.
 *
 * The command files take their descriptions from `SUMMARIES`; test/cli/command-table.test.ts holds
 * the program's help with the entries to the help with every command registered.
 */
import { type Command, Option } from 'commander';

interface Summary {
  readonly description: string;
  /** Whether the command has options (help lists it as `name [options]`). */
  readonly options: boolean;
  /** Its arguments as help shows them. */
  readonly args?: string;
}

export const SUMMARIES = {
  demo: {
    description: 'run the example config against the built-in simulator into a folder (no AWS, no network)',
    options: true,
  },
  validate: {
    description:
      'check the config file: every problem by path and every hint in one pass; exit 0, or 2 when it has problems',
    options: true,
  },
  check: {
    description: 'preflight against the live API: one small page per report, nothing written',
    options: true,
  },
  'migrate-v1': {
    description: 'print the v2 report config for v1 request URLs, with what changed and what is dropped',
    options: false,
    args: '<url...>',
  },
  run: {
    description:
      'one run of a schedule: by default its most recent occurrence at or before now (what the scheduler would have run last)',
    options: true,
  },
  backfill: {
    description:
      'every window of the schedule whose data overlaps --from..--to, oldest first, each an ordinary run ' +
      '(a window start..end is selected when start ≤ --to and end ≥ --from; windows the scheduler has not ' +
      'produced yet are left out)',
    options: true,
  },
  simulate: {
    description: 'serve a local simulator of the Reporting API v2 (deterministic data, switchable faults)',
    options: true,
  },
} as const satisfies Record<string, Summary>;

export type CommandName = keyof typeof SUMMARIES;

type Register = (program: Command) => void;

export const COMMANDS: Record<CommandName, () => Promise<Register>> = {
  demo: async () => (await import('./demo')).registerDemo,
  validate: async () => (await import('./validate')).registerValidate,
  check: async () => (await import('./check')).registerCheck,
  'migrate-v1': async () => (await import('./migrate-v1')).registerMigrateV1,
  run: async () => (await import('./run')).registerRun,
  backfill: async () => (await import('./backfill')).registerBackfill,
  simulate: async () => (await import('./simulate')).registerSimulate,
};

const NAMES = Object.keys(SUMMARIES) as CommandName[];

/** Registers what a command line needs: see above. */
export async function registerFor(program: Command, argv: readonly string[]): Promise<void> {
  const first = argv[2];
  if (first === undefined || first.startsWith('-')) {
    registerSummaries(program);
    return;
  }
  const names = NAMES.includes(first as CommandName) ? [first as CommandName] : NAMES;
  const registers = await Promise.all(names.map((name) => COMMANDS[name]()));
  for (const register of registers) register(program);
}

/** Commands that export rows, and so use the encoder worker. */
const EXPORTING: readonly string[] = ['run', 'backfill', 'demo'];

/** Whether the command line exports (and so will use the encoder worker): not for its help. */
export function startsWorker(argv: readonly string[]): boolean {
  const rest = argv.slice(3);
  return EXPORTING.includes(argv[2] ?? '') && !rest.includes('--help') && !rest.includes('-h');
}

/** Each command as the program's help lists it, and nothing more (it is never run). */
export function registerSummaries(program: Command): void {
  for (const name of NAMES) {
    const s: Summary = SUMMARIES[name];
    const cmd = program.command(name).description(s.description);
    // help writes `[options]` after a command that has options
    if (s.options) cmd.addOption(new Option('--options').hideHelp());
    if (s.args !== undefined) cmd.argument(s.args);
  }
}

/** Every command, registered for real. */
export async function registerAll(program: Command): Promise<void> {
  for (const register of await Promise.all(NAMES.map((name) => COMMANDS[name]()))) register(program);
}
