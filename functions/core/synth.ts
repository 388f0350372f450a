/**
 * What `cdk synth` reads from the functions tree besides the config schema (`./config/*`) and the
 * handlers' entry points: the name of the config file in the bundles, the check that a config keeps the
 * deployment's limits, the Scheduler schedules a config's schedules are grouped into, and the workflow's scratch prefixes in the bucket (task lists, Map results) that the stack grants and names.
 * `infra/` imports core code from here only (test/architecture/infra-imports.test.ts), so this file is
 * the one published surface between the app and the code it deploys.
 */
export { BUNDLED_CONFIG_FILE } from './config/bundled';
export { recipientParameters } from './email/recipients';
export { mapResultsPrefix, workflowPrefix } from './export/keys';
export { assertWithinLimits } from './limits';
export { scheduleGroups } from './schedule-groups';
export { CFN_MAX_RESOURCES, CFN_MAX_TEMPLATE_BYTES, SPLIT_ADVICE } from './stack-limits';
