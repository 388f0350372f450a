/**
 * After `cdk synth`: each stack's template measured against CloudFormation's limits (resources,
 * template bytes as written to the cloud assembly, which is what `cdk deploy` uploads), so a config
 * that would fail inside CloudFormation fails synthesis instead, with the numbers and how to split it.
 * `validate` and `buildApp` have refused such a config already from the estimate (core/stack-limits);
 * this is the measured check behind it.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { CFN_MAX_RESOURCES, CFN_MAX_TEMPLATE_BYTES, SPLIT_ADVICE } from '#core/synth';

export interface TemplateSize {
  readonly stack: string;
  readonly resources: number;
  readonly bytes: number;
}

/** Every stack's resources and template bytes in the assembly. */
export function templateSizes(assembly: CloudAssembly): TemplateSize[] {
  return assembly.stacks.map((s) => ({
    stack: s.stackName,
    resources: Object.keys((s.template as { Resources?: object }).Resources ?? {}).length,
    bytes: statSync(join(assembly.directory, s.templateFile)).size,
  }));
}

/** One message per limit a stack's template breaks (empty when all fit). */
export function templateProblems(sizes: readonly TemplateSize[]): string[] {
  return sizes.flatMap((t) => [
    ...(t.resources > CFN_MAX_RESOURCES
      ? [
          `${t.stack}: the template has ${t.resources} resources, over CloudFormation's ${CFN_MAX_RESOURCES} per stack; ${SPLIT_ADVICE}`,
        ]
      : []),
    ...(t.bytes > CFN_MAX_TEMPLATE_BYTES
      ? [
          `${t.stack}: the template is ${t.bytes} bytes, over CloudFormation's ${CFN_MAX_TEMPLATE_BYTES}; ${SPLIT_ADVICE}`,
        ]
      : []),
  ]);
}
