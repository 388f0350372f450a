#!/usr/bin/env node
// The CLI runs the TypeScript sources through tsx, so the repo needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../functions/cli/main.ts');
