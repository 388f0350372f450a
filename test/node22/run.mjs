#!/usr/bin/env node
/**
 * `npm run test:node22`: the handler end-to-end tests (test/handlers/workflow.e2e.test.ts, which also
 * runs the bundles `cdk synth` produces, and test/handlers/hostile-workflow.e2e.test.ts, the bundles
 * against issue 23's hostile API, and test/handlers/hostile-run-workflow.e2e.test.ts, its hostile
 * schedules) under the Node.js the Lambdas run, Node 22, taken from the npm
 * registry package installed by `npm ci --prefix test/node22`. The test checks that it really runs on
 * the expected major version (E2E_NODE_MAJOR). Extra arguments go to vitest.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const binary = join(here, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node');

if (!existsSync(binary)) {
  process.stderr.write(
    `No Node 22 for ${process.platform}-${process.arch} under test/node22: run "npm ci --prefix test/node22" ` +
      '(linux x64 and arm64 are packaged).\n',
  );
  process.exit(process.env.CI === 'true' ? 1 : 0);
}

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const args = process.argv.slice(2);
const result = spawnSync(
  binary,
  [
    vitest,
    'run',
    ...(args.length > 0
      ? args
      : [
          'test/handlers/workflow.e2e.test.ts',
          'test/handlers/hostile-workflow.e2e.test.ts',
          'test/handlers/hostile-run-workflow.e2e.test.ts',
        ]),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      E2E_NODE_MAJOR: '22',
      // Child processes started with `node` (if any) get the same Node.
      PATH: `${dirname(binary)}:${process.env.PATH ?? ''}`,
    },
  },
);
process.exit(result.status ?? 1);
