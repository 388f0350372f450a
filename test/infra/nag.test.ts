/**
 * cdk-nag's AwsSolutions pack run inside the tests: the example stack (new bucket, and an existing
 * bucket) has no unacknowledged finding, every acknowledgement carries a reason, and a deliberately
 * bad construct is reported and fails synthesis.
 */
import { App, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../infra/build-app';
import { exampleConfig } from './synth';

function acknowledgements(root: IConstruct): { path: string; id: string; reason: string }[] {
  return root.node.findAll().flatMap((c) =>
    c.node.metadata
      .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((m) =>
        // recorded as { "Annotation::<rule id>": reason }
        Object.entries(m.data as Record<string, string>).map(([key, reason]) => ({
          path: c.node.path,
          id: key.replace(/^Annotation::/, ''),
          reason,
        })),
      ),
  );
}

/** cdk-nag reads the constructs, not the bundles: skip esbuild (three bundles per app). */
const NO_BUNDLING = { context: { 'aws:cdk:bundling-stacks': [] as string[] } };

describe('cdk-nag AwsSolutions', () => {
  let app: App;

  beforeAll(async () => {
    ({ app } = buildApp({ config: await exampleConfig(), nag: false, appProps: NO_BUNDLING }));
  }, 120_000);

  it('finds nothing unacknowledged in the example stack', () => {
    const report = new AwsSolutionsChecks(app).validateScope(app);
    expect(report.violations).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('acknowledges each finding beside its construct, with a reason', () => {
    const acks = acknowledgements(app);
    expect(acks.map((a) => a.id.replace(/\[.*$/, '')).sort()).toEqual(
      [
        'AwsSolutions-IAM5', // export prefix, Export role
        'AwsSolutions-IAM5', // export prefix, Finalize role
        'AwsSolutions-IAM5', // Finalize role: the database's tables (created and extended by the workflow)
        'AwsSolutions-IAM5', // state machine: X-Ray / log delivery
        'AwsSolutions-IAM5', // dispatcher: X-Ray / log delivery
        'AwsSolutions-IAM5', // state machine: Plan function versions
        'AwsSolutions-IAM5', // state machine: Export function versions
        'AwsSolutions-IAM5', // state machine: Finalize function versions
        'AwsSolutions-IAM5', // state machine: Distributed Map task list and results (bucket objects)
        'AwsSolutions-IAM5', // Distributed Map: its child executions
        'AwsSolutions-IAM5', // Distributed Map: redriving its child executions
        'AwsSolutions-IAM5', // Plan role: the run's task list
        'AwsSolutions-IAM5', // consumer policy: export prefix
        'AwsSolutions-IAM5', // consumer policy: Athena results prefix
        'AwsSolutions-IAM5', // consumer policy: the database's tables
        'AwsSolutions-IAM5', // Plan role: X-Ray (Tracing.ACTIVE)
        'AwsSolutions-IAM5', // Export role: X-Ray
        'AwsSolutions-IAM5', // Finalize role: X-Ray
        'AwsSolutions-L1',
        'AwsSolutions-L1',
        'AwsSolutions-L1',
        'AwsSolutions-S1',
        'AwsSolutions-SQS3',
      ].sort(),
    );
    for (const a of acks) expect(a.reason.length).toBeGreaterThan(60);
  });

  it('finds nothing unacknowledged when the config (or -c bucketName) names an existing bucket', async () => {
    const config = await exampleConfig();
    const { app: other, stack } = buildApp({
      config: { ...config, output: { ...config.output, bucketName: 'existing-exports-bucket' } },
      nag: false,
      appProps: NO_BUNDLING,
    });
    expect(new AwsSolutionsChecks(other).validateScope(other).violations).toEqual([]);
    expect(stack.resolve(stack.storage.bucket.bucketName)).toBe('existing-exports-bucket');
    expect(stack.node.findAll().filter((c) => c instanceof s3.CfnBucket)).toEqual([]);

    const { stack: byContext } = buildApp({
      config,
      nag: false,
      appProps: { context: { ...NO_BUNDLING.context, bucketName: 'ctx-bucket' } },
    });
    expect(byContext.resolve(byContext.storage.bucket.bucketName)).toBe('ctx-bucket');
    // two apps, each bundling the three functions: over a minute on a loaded 2-core machine
  }, 180_000);

  it('reports a deliberately bad construct and fails synthesis on it', () => {
    const bad = new App();
    const stack = new Stack(bad, 'Bad');
    new s3.Bucket(stack, 'Unlogged');
    new iam.Policy(stack, 'Wide', {
      statements: [new iam.PolicyStatement({ actions: ['s3:*'], resources: ['*'] })],
    }).attachToRole(
      new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') }),
    );
    const rules = new AwsSolutionsChecks(bad).validateScope(bad).violations.map((v) => v.ruleName);
    expect(rules).toEqual(
      expect.arrayContaining([
        'AwsSolutions-S1',
        'AwsSolutions-S10',
        'AwsSolutions-IAM5[Action::s3:*]',
        'AwsSolutions-IAM5[Resource::*]',
      ]),
    );
    Validations.of(bad).addPlugins(new AwsSolutionsChecks(bad));
    expect(() => bad.synth()).toThrow(/AwsSolutions-S1[\s\S]*validation-report\.json/);
  });
});
