/**
 * The limits a config must keep to run as deployed (one place for them all): the Step Functions
 * payload bound (`./run/payload-estimate`), and — for a deployment only — CloudFormation's limits on
 * one stack (`./stack-limits`: resources, template bytes). `validate` and `cdk synth` refuse a config
 * that breaks one; `run`/`backfill` and the Plan Lambda refuse one that breaks a run's limit too,
 * before anything is fetched, with the same message (docs/config.md, "Limits"). Add a limit here as a
 * function returning problems by config path.
 */

import { formatPath } from './config/path';
import type { Config } from './config/schema';
import { ExporterError } from './errors';
import { payloadProblems } from './run/payload-estimate';
import { stackProblems } from './stack-limits';

export interface LimitProblem {
  readonly path: (string | number)[];
  readonly message: string;
}

/** Every problem of `config` for a deployment, by path (empty when it fits). */
export function deploymentProblems(config: Config): LimitProblem[] {
  return [...payloadProblems(config)];
}

/**
 * Throws CONFIG_INVALID listing each problem by path, like every config problem, when `config` breaks
 * a deployment limit: a run's, and with `stack` (validate, cdk synth) also one stack's.
 */
export function assertWithinLimits(
  config: Config,
  source = 'reports.yaml',
  options: { readonly stack?: boolean } = {},
): void {
  const found = [...deploymentProblems(config), ...(options.stack ? stackProblems(config) : [])];
  const problems = found.map((p) => `${formatPath(p.path)}: ${p.message}`);
  if (problems.length === 0) return;
  throw new ExporterError(
    'CONFIG_INVALID',
    `${source} has ${problems.length} problem${problems.length === 1 ? '' : 's'} for a deployment:\n  ${problems.join('\n  ')}`,
    { details: { problems } },
  );
}
