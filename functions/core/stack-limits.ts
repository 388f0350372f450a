/**
 * CloudFormation's limits on one stack, checked from the config before anything is synthesized
 * (`validate`, `cdk synth`): a stack holds at most 500 resources and its template at most 1 MB
 * (uploaded through S3, as `cdk deploy` does). The stack grows only with its Scheduler schedules —
 * one per distinct time of the config's schedules (`./schedule-groups`); Glue tables are the
 * workflow's and the config is a file in the bundles — so the estimate is the rest of the stack (a
 * bound, held by test/infra/scale.slow.test.ts over a config with every optional part) plus the schedules.
 * `cdk synth` then measures the real template (infra/template-limits.ts).
 */
import type { Config } from './config/schema';
import { groupInputBytes, scheduleGroups } from './schedule-groups';

/** CloudFormation: resources in one stack. */
export const CFN_MAX_RESOURCES = 500;
/** CloudFormation: template body size when uploaded to S3 (bytes). */
export const CFN_MAX_TEMPLATE_BYTES = 1_000_000;
/** The stack's resources besides the Scheduler schedules, at most (every optional part on). */
export const STACK_FIXED_RESOURCES = 60;
/** The template's bytes besides the Scheduler schedules, at most (as `cdk synth` writes it). */
export const STACK_FIXED_TEMPLATE_BYTES = 120_000;
/** One Scheduler schedule in the template, besides its input's schedule ids. */
export const SCHEDULE_RESOURCE_BYTES = 1_500;

export interface StackEstimate {
  readonly schedulerSchedules: number;
  readonly resources: number;
  readonly templateBytes: number;
}

/** The most the stack of `config` can hold: resources and template bytes (upper bounds). */
export function estimateStack(config: Config): StackEstimate {
  const groups = scheduleGroups(config.schedules);
  // the input is a JSON string inside the template: each quote escaped once more
  const inputs = groups.reduce((n, g) => n + groupInputBytes(g.scheduleIds) + 2 * g.scheduleIds.length, 0);
  return {
    schedulerSchedules: groups.length,
    resources: STACK_FIXED_RESOURCES + groups.length,
    templateBytes: STACK_FIXED_TEMPLATE_BYTES + groups.length * SCHEDULE_RESOURCE_BYTES + inputs,
  };
}

/** One line for `validate`: the stack's size against CloudFormation's limits. */
export function describeStack(e: StackEstimate): string {
  return `deployment: ${e.schedulerSchedules} Scheduler schedule(s) (one per distinct cron + timezone), at most ${e.resources} of CloudFormation's ${CFN_MAX_RESOURCES} resources per stack, template at most ~${Math.ceil(e.templateBytes / 1000)} KB of ${CFN_MAX_TEMPLATE_BYTES / 1000} KB`;
}

/** How to split a config that does not fit one stack (the same words for every stack limit). */
export const SPLIT_ADVICE =
  'split the schedules over several config files and deploy each as its own stack: cdk deploy -c config=part-1.yaml -c stackName=ReportExporter1 -c glueDatabase=report_exporter_1 (and so on), or give schedules that may run together the same cron and timezone (one Scheduler schedule fires them all)';

/** The config's problems for one CloudFormation stack, at `schedules`. */
export function stackProblems(config: Config): { path: (string | number)[]; message: string }[] {
  const e = estimateStack(config);
  const problems: string[] = [];
  if (e.resources > CFN_MAX_RESOURCES) {
    problems.push(
      `its ${config.schedules.length} schedules fire at ${e.schedulerSchedules} distinct times (cron + timezone), one Scheduler schedule each: the stack would hold up to ${e.resources} resources, over CloudFormation's ${CFN_MAX_RESOURCES} per stack (at most ${CFN_MAX_RESOURCES - STACK_FIXED_RESOURCES} distinct times fit one stack)`,
    );
  }
  if (e.templateBytes > CFN_MAX_TEMPLATE_BYTES) {
    problems.push(
      `the stack's template could reach ~${Math.ceil(e.templateBytes / 1000)} KB, over CloudFormation's ${CFN_MAX_TEMPLATE_BYTES / 1000} KB`,
    );
  }
  return problems.map((p) => ({ path: ['schedules'], message: `${p}; ${SPLIT_ADVICE}` }));
}
