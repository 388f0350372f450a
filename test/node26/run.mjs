#!/usr/bin/env node
/**
 * `npm run test:node26`: the unit tests (`npm test`'s project) on Node 26, the newest LTS line the
 * `engines` range admits, taken from the npm registry package installed by `npm ci --prefix
 * test/node26`. CI runs the whole suite on the local Node (20); this catches what a newer Node does
 * differently (Node 24 and 26's `rmSync` resolved where `node:fs/promises` rejected, which only the
 * inline file calls' property test saw). test/project/engines.test.ts checks that it really runs on
 * Node 26 (`TEST_NODE_MAJOR`). Extra arguments go to vitest.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vitestOnNode } from '../support/run-on-node.mjs';

const args = process.argv.slice(2);
vitestOnNode({
  dir: dirname(fileURLToPath(import.meta.url)),
  major: 26,
  args: args.length > 0 ? args : ['--project', 'unit'],
});
