/**
 * `report-exporter --help` lists the commands from their one-line entries alone
 * (functions/cli/commands/table.ts), without loading them: its output must be exactly the help of the
 * program with every command registered for real, and each command line must get what it needs.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerAll, registerFor, registerSummaries, SUMMARIES, startsWorker } from '#cli/commands/table';

const program = () =>
  new Command('report-exporter').description('d').version('1.0.0', '-V, --version', 'v').exitOverride();

describe('the command table', () => {
  it("the program's help from the entries alone equals its help with every command registered", async () => {
    const real = program();
    await registerAll(real);
    const summaries = program();
    registerSummaries(summaries);
    expect(summaries.helpInformation()).toBe(real.helpInformation());
    for (const cmd of real.commands)
      expect(cmd.description()).toBe(SUMMARIES[cmd.name() as keyof typeof SUMMARIES].description);
  });

  it('registers the entries for no command, the one command named, and every command otherwise', async () => {
    const optionsOnly = program();
    await registerFor(optionsOnly, ['node', 'cli', '--help']);
    expect(optionsOnly.commands.every((c) => c.options.every((o) => o.hidden))).toBe(true);

    const run = program();
    await registerFor(run, ['node', 'cli', 'run', '--schedule', 'x']);
    expect(run.commands.map((c) => c.name())).toEqual(['run']);
    expect(run.commands[0]?.options.some((o) => o.long === '--schedule')).toBe(true);

    const help = program();
    await registerFor(help, ['node', 'cli', 'help', 'run']);
    expect(help.commands.map((c) => c.name())).toEqual(Object.keys(SUMMARIES));
    expect(help.commands.find((c) => c.name() === 'run')?.options.some((o) => o.long === '--schedule')).toBe(
      true,
    );
  });

  it('starts the encoder worker early for a command that exports, never for help or another command', () => {
    const argv = (...args: string[]) => ['node', 'cli', ...args];
    for (const name of ['run', 'backfill', 'demo'])
      expect(startsWorker(argv(name, '--schedule', 'x'))).toBe(true);
    for (const line of [
      argv('run', '--help'),
      argv('backfill', '-h'),
      argv('validate', '-c', 'x.yaml'),
      argv('help', 'run'),
      argv('--help'),
      argv(),
    ])
      expect(startsWorker(line)).toBe(false);
  });
});
