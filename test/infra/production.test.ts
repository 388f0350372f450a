/**
 * The production options of the `deploy` config section, each on the synthesized template: a
 * customer-managed key for the secret and for the bucket (granted only through the service that uses
 * it), tags on every taggable resource, export retention and the removal policy, the Export Lambda in
 * a VPC, and the consumers' managed policy with its Athena workgroup — with cdk-nag still green.
 * Bundling is skipped (no asset matters here).
 */
import type { App, Stack } from 'aws-cdk-lib';
import { CfnResource, TagManager } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '#core/config/load';
import type { Config } from '#core/config/schema';
import { isExporterError } from '#core/errors';
import { buildApp } from '../../infra/build-app';
import { exampleConfig, resourcesOf } from './synth';

const REGION = 'eu-central-1';
const ACCOUNT = '123456789012';
const SECRET_KEY = `arn:aws:kms:${REGION}:${ACCOUNT}:key/11111111-2222-3333-4444-555555555555`;
const BUCKET_KEY = `arn:aws:kms:${REGION}:${ACCOUNT}:key/66666666-7777-8888-9999-000000000000`;
const TAGS = { team: 'data-platform', 'cost-center': '4711', 'app:name': 'report exporter' };

let base: Config;

function build(deploy: Record<string, unknown>, output: Record<string, unknown> = {}) {
  const config = validateConfig({
    ...base,
    output: { ...base.output, ...output },
    deploy,
  } as unknown as Record<string, unknown>);
  process.env.CDK_DEFAULT_ACCOUNT = ACCOUNT;
  process.env.CDK_DEFAULT_REGION = REGION;
  const { app, stack } = buildApp({
    config,
    nag: false,
    appProps: { context: { 'aws:cdk:bundling-stacks': [] } },
  });
  return { app, stack, template: Template.fromStack(stack) };
}

/** The statements of a role's inline policies, by the role's construct id (Plan, Export, Finalize …). */
function statementsOf(template: Template, roleLogicalIdPrefix: string): Record<string, unknown>[] {
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((p) =>
      (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref.startsWith(roleLogicalIdPrefix)),
    )
    .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement);
}

function nagViolations(app: App): string[] {
  return new AwsSolutionsChecks(app).validateScope(app).violations.map((v) => v.ruleName);
}

beforeAll(async () => {
  base = await exampleConfig();
});

describe('customer-managed KMS keys', () => {
  let built: ReturnType<typeof build>;
  beforeAll(() => {
    built = build(
      { secretKmsKeyArn: SECRET_KEY, bucketKmsKeyArn: BUCKET_KEY },
      { bucketName: 'team-exports-kms' },
    );
  });

  it('lets only the Plan (credentials preflight) and Export roles decrypt the secret, and only through Secrets Manager', () => {
    const secretKey = {
      Effect: 'Allow',
      Action: 'kms:Decrypt',
      Resource: SECRET_KEY,
      Condition: { StringEquals: { 'kms:ViaService': `secretsmanager.${REGION}.amazonaws.com` } },
    };
    expect(statementsOf(built.template, 'FunctionsExportRole')).toContainEqual(secretKey);
    expect(statementsOf(built.template, 'FunctionsPlanRole')).toContainEqual(secretKey);
    expect(JSON.stringify(statementsOf(built.template, 'FunctionsFinalizeRole'))).not.toContain(SECRET_KEY);
  });

  it('lets Plan, Export, Finalize and the Distributed Map write and read SSE-KMS objects of an existing bucket, only through S3', () => {
    const bucketKey = {
      Effect: 'Allow',
      Action: ['kms:GenerateDataKey', 'kms:Decrypt'],
      Resource: BUCKET_KEY,
      Condition: { StringEquals: { 'kms:ViaService': `s3.${REGION}.amazonaws.com` } },
    };
    expect(statementsOf(built.template, 'FunctionsExportRole')).toContainEqual(bucketKey);
    expect(statementsOf(built.template, 'FunctionsFinalizeRole')).toContainEqual(bucketKey);
    // Plan writes the run's task list, the Map reads it and writes its results
    expect(statementsOf(built.template, 'FunctionsPlanRole')).toContainEqual(bucketKey);
    expect(statementsOf(built.template, 'WorkflowStateMachineRole')).toContainEqual(bucketKey);
    built.template.resourceCountIs('AWS::S3::Bucket', 0);
  });

  it('encrypts a bucket it creates with the configured key (S3 Bucket Key on)', () => {
    const { template } = build({ bucketKmsKeyArn: BUCKET_KEY });
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [
          {
            BucketKeyEnabled: true,
            ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: BUCKET_KEY },
          },
        ],
      },
    });
  });

  it('keeps cdk-nag green', () => {
    expect(nagViolations(built.app)).toEqual([]);
  });
});

describe('tags from the config', () => {
  it('are on every resource of the stack that takes tags', () => {
    const { stack, template } = build({ tags: TAGS });
    const json = template.toJSON() as { Resources: Record<string, { Properties?: { Tags?: unknown } }> };
    const taggable = stack.node
      .findAll()
      .filter((c): c is CfnResource => CfnResource.isCfnResource(c) && TagManager.isTaggable(c))
      .map((c) => stack.resolve(c.logicalId) as string);
    expect(taggable.length).toBeGreaterThan(15);
    for (const id of taggable) {
      const tags = json.Resources[id]?.Properties?.Tags;
      const asMap = Array.isArray(tags)
        ? Object.fromEntries((tags as { Key: string; Value: string }[]).map((t) => [t.Key, t.Value]))
        : (tags as Record<string, string> | undefined);
      expect(asMap, id).toMatchObject(TAGS);
    }
  });

  it('rejects keys AWS reserves', () => {
    expect(() => validateConfig({ ...base, deploy: { tags: { 'aws:owner': 'x' } } })).toThrow(
      /deploy\.tags.*may not start with "aws:"/s,
    );
  });
});

describe('export retention and removal policy', () => {
  it('expires and transitions the exports under the prefix; the bucket is retained by default', () => {
    const { template } = build({
      retention: { expireAfterDays: 400, transitionAfterDays: 30, storageClass: 'GLACIER_IR' },
    });
    const [exportsBucket] = Object.entries(template.findResources('AWS::S3::Bucket')).filter(([id]) =>
      id.startsWith('StorageExports'),
    );
    expect(exportsBucket?.[1]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          {
            Id: 'export-retention',
            Prefix: 'exports/',
            Status: 'Enabled',
            ExpirationInDays: 400,
            Transitions: [{ StorageClass: 'GLACIER_IR', TransitionInDays: 30 }],
          },
        ]),
      },
    });
  });

  it('deletes the buckets with the stack when removalPolicy is destroy', () => {
    const { template } = build({ removalPolicy: 'destroy' });
    const buckets = Object.values(template.findResources('AWS::S3::Bucket'));
    expect(buckets).toHaveLength(2);
    for (const b of buckets) expect(b).toMatchObject({ DeletionPolicy: 'Delete' });
  });

  it('has no retention rule unless configured, and refuses retention on an existing bucket', () => {
    const plain = build({}).template;
    expect(JSON.stringify(plain.toJSON())).not.toContain('export-retention');
    const { stack } = build({ retention: { expireAfterDays: 30 } }, { bucketName: 'theirs' });
    Annotations.fromStack(stack as Stack).hasError(
      '*',
      Match.stringLikeRegexp('deploy.retention applies only to a bucket this stack creates'),
    );
  });

  it('validates the day counts', () => {
    let problems: string[] = [];
    try {
      validateConfig({ ...base, deploy: { retention: { expireAfterDays: 30, transitionAfterDays: 60 } } });
    } catch (err: unknown) {
      if (isExporterError(err)) problems = (err.details.problems as string[]) ?? [];
    }
    expect(problems.join('\n')).toContain('transitionAfterDays must be less than expireAfterDays');
  });
});

describe('VPC placement of the Lambdas that call the API', () => {
  const vpc = { vpcId: 'vpc-0a1b2c3d4e5f60718', subnetIds: ['subnet-0aaa1111', 'subnet-0bbb2222'] };

  it('puts only Plan (its token preflight) and Export into the private subnets, with outbound-only security groups', () => {
    const { app, template } = build({ vpc });
    const fns = Object.values(resourcesOf(template, 'AWS::Lambda::Function'));
    const inVpc = fns.filter((f) => f.Properties.VpcConfig);
    expect(inVpc.map((f) => String(f.Properties.Description)).sort()).toEqual([
      'report-exporter: export one report (continues from a checkpoint)',
      'report-exporter: plan a run (window + report tasks)',
    ]);
    for (const fn of inVpc) expect(fn.Properties.VpcConfig).toMatchObject({ SubnetIds: vpc.subnetIds });
    template.hasResourceProperties('AWS::EC2::SecurityGroup', {
      VpcId: vpc.vpcId,
      SecurityGroupEgress: [{ CidrIp: '0.0.0.0/0', IpProtocol: '-1' }],
    });
    expect(
      template.findResources('AWS::EC2::SecurityGroup', {
        Properties: { SecurityGroupIngress: Match.anyValue() },
      }),
    ).toEqual({});
    for (const role of ['FunctionsExportRole', 'FunctionsPlanRole']) {
      expect(statementsOf(template, role)).toContainEqual(
        expect.objectContaining({ Action: expect.arrayContaining(['ec2:CreateNetworkInterface']) }),
      );
    }
    expect(JSON.stringify(statementsOf(template, 'FunctionsFinalizeRole'))).not.toContain('ec2:');
    expect(nagViolations(app)).toEqual([]);
  });

  it('uses the configured security groups instead of creating one', () => {
    const { template } = build({ vpc: { ...vpc, securityGroupIds: ['sg-0123456789abcdef0'] } });
    template.resourceCountIs('AWS::EC2::SecurityGroup', 0);
    template.hasResourceProperties('AWS::Lambda::Function', {
      VpcConfig: { SecurityGroupIds: ['sg-0123456789abcdef0'], SubnetIds: vpc.subnetIds },
    });
  });
});

describe('consumers: managed read policy and Athena workgroup', () => {
  let built: ReturnType<typeof build>;
  beforeAll(() => {
    built = build({});
  });

  it('outputs a managed policy that reads the exports and the Glue tables, and writes nothing else', () => {
    const policies = Object.values(resourcesOf(built.template, 'AWS::IAM::ManagedPolicy'));
    expect(policies).toHaveLength(1);
    const document = policies[0]?.Properties.PolicyDocument as { Statement: Record<string, unknown>[] };
    const statements = document.Statement;
    const text = JSON.stringify(statements);
    expect(statements).toContainEqual(
      expect.objectContaining({ Sid: 'ReadExports', Action: 's3:GetObject' }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({
        Sid: 'ListExports',
        Condition: { StringLike: { 's3:prefix': ['exports/*'] } },
      }),
    );
    const glue = statements.find((s) => s.Sid === 'ReadCatalog');
    expect(glue?.Action).toEqual(
      expect.arrayContaining(['glue:GetDatabase', 'glue:GetTable', 'glue:GetPartitions']),
    );
    expect(JSON.stringify(glue?.Resource)).toContain('table/report_exporter/*');
    // Writes only under the Athena results prefix, never under the exports.
    for (const s of statements.filter((x) => JSON.stringify(x.Action).includes('s3:PutObject'))) {
      expect(JSON.stringify(s.Resource)).toContain('/athena-results/*');
    }
    expect(text).not.toMatch(/s3:DeleteObject|glue:(Create|Update|Delete)/);
    built.template.hasOutput('ConsumerPolicyArn', {
      Value: { Ref: Match.stringLikeRegexp('^ConsumersReadPolicy') },
    });
  });

  it('creates an Athena workgroup that enforces encrypted results under athena-results/', () => {
    built.template.hasResourceProperties('AWS::Athena::WorkGroup', {
      Name: 'ReportExporter-exports',
      WorkGroupConfiguration: {
        EnforceWorkGroupConfiguration: true,
        ResultConfiguration: {
          EncryptionConfiguration: { EncryptionOption: 'SSE_S3' },
          OutputLocation: Match.objectLike({ 'Fn::Join': ['', Match.arrayWith(['/athena-results/'])] }),
        },
      },
    });
    built.template.hasOutput('AthenaWorkgroup', Match.anyValue());
    const none = build({ athenaWorkgroup: false }).template;
    none.resourceCountIs('AWS::Athena::WorkGroup', 0);
    expect(JSON.stringify(none.toJSON())).not.toContain('athena:');
  });

  it('keeps cdk-nag green', () => {
    expect(nagViolations(built.app)).toEqual([]);
  });
});
