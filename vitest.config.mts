import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Two projects (README, "Development"):
 * - `unit` (`npm test`): everything that runs in-process against loopback servers started in-process —
 *   the quick check before a commit.
 * - `slow` (`npm run test:slow`): what spawns processes or external servers — the CLI as a user runs it,
 *   moto_server, Chromium, `cdk deploy` into the emulator, the bench smoke. CI (`.ci/run`) runs both.
 *
 * The convention for a new test file: put it under one of the SLOW folders or name it
 * `*.slow.test.ts` (or `*.moto.test.ts`, `*.e2e.test.ts`) when it spawns the CLI or a server process,
 * starts moto/Chromium/cdk, or takes more than a few seconds; anything else is a unit test.
 */
const SLOW = [
  'test/e2e/**/*.test.ts',
  'test/deploy/**/*.test.ts',
  'test/bench/**/*.test.ts',
  'test/render/**/*.test.ts',
  'test/integration/**/*.test.ts',
  'test/**/*.slow.test.ts',
  'test/**/*.moto.test.ts',
  'test/**/*.e2e.test.ts',
];

export default defineConfig({
  test: {
    // the CLI's bundle, rebuilt once here when a source changed (test/support/cli-bundle.ts)
    globalSetup: ['test/support/cli-bundle.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: one on a 2-core machine. Most test time is
    // waiting (servers on loopback, child processes, synth I/O), so one worker per core halves it.
    maxWorkers: Math.max(2, availableParallelism()),
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: SLOW } },
      { extends: true, test: { name: 'slow', include: SLOW } },
    ],
  },
});
