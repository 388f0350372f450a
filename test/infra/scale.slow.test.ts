/**
 * One deployment holds a platform team's whole config (issue 28): 500 schedules × 10 reports (two
 * metrics each) synthesize into one stack under CloudFormation's limits — the stack grows with the
 * distinct times the schedules fire at, not with schedules or reports — with cdk-nag clean, the
 * config inside each bundle (no command line carries it), every run's state within the Step
 * Functions payload bound; and a config that would not fit is refused with the numbers and how to
 * split it. Every optional part of the stack is on, so its fixed part is at its largest.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '#core/config/schema';
import { assertWithinLimits } from '#core/limits';
import { groupInputBytes, MAX_GROUP_INPUT_BYTES, scheduleGroups } from '#core/schedule-groups';
import {
  CFN_MAX_RESOURCES,
  CFN_MAX_TEMPLATE_BYTES,
  estimateStack,
  STACK_FIXED_RESOURCES,
  stackProblems,
} from '#core/stack-limits';
import { buildApp } from '../../infra/build-app';
import { type TemplateSize, templateProblems, templateSizes } from '../../infra/template-limits';
import { largeConfig } from '../support/large-config';

let config: Config;
let assembly: CloudAssembly;
let size: TemplateSize;
let resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
const outdir = mkdtempSync(join(tmpdir(), 'scale-'));

beforeAll(() => {
  config = largeConfig({ schedules: 500, reports: 10, rich: true });
  process.env.CDK_DEFAULT_ACCOUNT = '123456789012';
  process.env.CDK_DEFAULT_REGION = 'eu-central-1';
  const started = performance.now();
  // cdk-nag on (a finding fails synthesis); no bundling (the bundles do not change the template)
  const { app } = buildApp({ config, appProps: { outdir, context: { 'aws:cdk:bundling-stacks': [] } } });
  assembly = app.synth();
  [size] = templateSizes(assembly) as [TemplateSize];
  const [stack] = assembly.stacks;
  if (!stack) throw new Error('no stack synthesized');
  resources = (stack.template as { Resources: typeof resources }).Resources;
  process.stdout.write(
    `500 × 10 synthesized in ${Math.round(performance.now() - started)} ms: ${size.resources} resources, ${size.bytes} template bytes\n`,
  );
}, 300_000);

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const count = (type: string) => Object.values(resources).filter((r) => r.Type === type).length;

describe('500 schedules × 10 reports in one stack', () => {
  it("stays under CloudFormation's 500 resources and 1 MB template", () => {
    expect(size.resources).toBeLessThanOrEqual(CFN_MAX_RESOURCES);
    expect(size.bytes).toBeLessThanOrEqual(CFN_MAX_TEMPLATE_BYTES);
    expect(templateProblems([size])).toEqual([]);
  });

  it('grows with the distinct times only: one Scheduler schedule per cron + timezone, no Glue table, three functions', () => {
    const times = new Set(config.schedules.map((s) => `${s.cron}|${s.timezone}`)).size;
    expect(times).toBe(96);
    expect(count('AWS::Scheduler::Schedule')).toBe(scheduleGroups(config.schedules).length);
    expect(count('AWS::Scheduler::Schedule')).toBe(times);
    expect(count('AWS::Glue::Table')).toBe(0);
    expect(count('AWS::Lambda::Function')).toBe(3);
    expect(count('AWS::StepFunctions::StateMachine')).toBe(2);
  });

  it('names every schedule in exactly one Scheduler input, each within the input bound', () => {
    const named = Object.values(resources)
      .filter((r) => r.Type === 'AWS::Scheduler::Schedule')
      .flatMap((r) => {
        const target = r.Properties?.Target as { Input: string } | undefined;
        const input = JSON.parse(target?.Input ?? '{}') as {
          scheduleIds: string[];
        };
        expect(groupInputBytes(input.scheduleIds)).toBeLessThanOrEqual(MAX_GROUP_INPUT_BYTES);
        return input.scheduleIds;
      });
    expect(named.sort()).toEqual(config.schedules.map((s) => s.id).sort());
  });

  it("is within the estimate validate reports (the stack's fixed part at its largest)", () => {
    const estimate = estimateStack(config);
    expect(size.resources - count('AWS::Scheduler::Schedule')).toBeLessThanOrEqual(STACK_FIXED_RESOURCES);
    expect(size.resources).toBeLessThanOrEqual(estimate.resources);
    expect(size.bytes).toBeLessThanOrEqual(estimate.templateBytes);
  });

  it("lets Finalize read the 500 recipient lists by their path (500 ARNs would not fit the role's policies)", () => {
    const policies = Object.values(resources).filter((r) => /^AWS::IAM::(Managed)?Policy$/.test(r.Type));
    const ssm = JSON.stringify(policies).match(/:parameter\/[^"]*/g);
    expect(ssm).toEqual([':parameter/report-exporter/*']);
    // every policy of the stack within IAM's managed-policy size (6,144 characters without spaces)
    for (const p of policies) expect(JSON.stringify(p.Properties?.PolicyDocument).length).toBeLessThan(6_144);
  });

  it('keeps every run within the Step Functions payload bound', () => {
    expect(() => assertWithinLimits(config, 'large.yaml', { stack: true })).not.toThrow();
  });
});

describe('a config that does not fit one stack', () => {
  it('is refused before synthesis with the numbers and how to split it', () => {
    const over = largeConfig({ schedules: 500, reports: 1, distinctTimes: true });
    const [problem] = stackProblems(over);
    expect(problem?.path).toEqual(['schedules']);
    expect(problem?.message).toMatch(
      /500 schedules fire at 500 distinct times .* up to 560 resources, over CloudFormation's 500/,
    );
    expect(problem?.message).toContain('-c stackName=');
    expect(() => buildApp({ config: over, nag: false })).toThrow(/does not|over CloudFormation's 500/);
  });

  it('is refused after synthesis when the measured template is over a limit', () => {
    const [message] = templateProblems([{ stack: 'ReportExporter', resources: 612, bytes: 1_200_000 }]);
    expect(message).toMatch(
      /ReportExporter: the template has 612 resources, over CloudFormation's 500 per stack/,
    );
  });
});
