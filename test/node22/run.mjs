#!/usr/bin/env node
/**
 * `npm run test:node22`: the handler end-to-end tests (test/handlers/workflow.e2e.test.ts, which also
 * runs the bundles `cdk synth` produces, and test/handlers/hostile-workflow.e2e.test.ts, the bundles
 * against issue 23's hostile API, and test/handlers/hostile-run-workflow.e2e.test.ts, its hostile
 * schedules) under the Node.js the Lambdas run, Node 22, taken from the npm registry package installed
 * by `npm ci --prefix test/node22`. The test checks that it really runs on the expected major version
 * (`TEST_NODE_MAJOR`). Extra arguments go to vitest.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vitestOnNode } from '../support/run-on-node.mjs';

const args = process.argv.slice(2);
vitestOnNode({
  dir: dirname(fileURLToPath(import.meta.url)),
  major: 22,
  args:
    args.length > 0
      ? args
      : [
          'test/handlers/workflow.e2e.test.ts',
          'test/handlers/hostile-workflow.e2e.test.ts',
          'test/handlers/hostile-run-workflow.e2e.test.ts',
        ],
});
