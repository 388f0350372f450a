/** One synthesized template of the example config, shared by the infra tests of a file (not a test file). */
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { parseConfig } from '#core/config/load';
import type { Config } from '#core/config/schema';
import { buildApp } from '../../infra/build-app';
import type { ExporterStack } from '../../infra/stacks/exporter-stack';

export const ROOT = join(import.meta.dirname, '..', '..');

export async function exampleConfig(): Promise<Config> {
  return parseConfig(await readFile(join(ROOT, 'reports.yaml'), 'utf8'));
}

export interface Synthesized {
  readonly app: App;
  readonly stack: ExporterStack;
  readonly template: Template;
  readonly outdir: string;
  readonly config: Config;
}

/** Builds the app with cdk-nag on (a finding would make synthesis throw) and synthesizes it once. */
export async function synthExample(config?: Config): Promise<Synthesized> {
  const cfg = config ?? (await exampleConfig());
  const outdir = mkdtempSync(join(tmpdir(), 'infra-test-'));
  const { app, stack } = buildApp({ config: cfg, appProps: { outdir } });
  const template = Template.fromStack(stack);
  return { app, stack, template, outdir, config: cfg };
}

/** Every resource of a type, by logical id. */
export function resourcesOf(
  template: Template,
  type: string,
): Record<string, { Properties: Record<string, unknown> }> {
  return template.findResources(type) as Record<string, { Properties: Record<string, unknown> }>;
}

/**
 * A state machine's definition with CloudFormation tokens replaced by `<LogicalId>`: the export
 * workflow's, or the one whose logical id starts with `idPrefix` (e.g. the schedules' dispatcher).
 */
/** The workflow's state machine definition for `config`, synthesized into `outdir` without building the Lambda bundles. */
export function workflowDefinition(config: Config, outdir: string): Record<string, unknown> {
  const { stack } = buildApp({
    config,
    nag: false,
    appProps: { outdir, context: { 'aws:cdk:bundling-stacks': [] } },
  });
  return definitionOf(Template.fromStack(stack));
}

export function definitionOf(template: Template, idPrefix = 'WorkflowStateMachine'): Record<string, unknown> {
  const sm = Object.entries(resourcesOf(template, 'AWS::StepFunctions::StateMachine')).find(([id]) =>
    id.startsWith(idPrefix),
  )?.[1];
  if (!sm) throw new Error(`no state machine ${idPrefix}… in the template`);
  const parts = (sm.Properties.DefinitionString as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
  const text = parts
    .map((p) =>
      typeof p === 'string'
        ? p
        : `<${String((p as { 'Fn::GetAtt'?: string[] })['Fn::GetAtt']?.[0] ?? 'token')}>`,
    )
    .join('');
  return JSON.parse(text) as Record<string, unknown>;
}
