/**
 * What each deployed resource looks like through its own service's API, next to what the template
 * says it should be (resolved), one comparer per resource type (not a test file). A type without a
 * comparer is only checked to exist (see deploy.test.ts for which, and why).
 */
import { AthenaClient, GetWorkGroupCommand } from '@aws-sdk/client-athena';
import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { GetDatabaseCommand, GetTableCommand, GlueClient } from '@aws-sdk/client-glue';
import {
  GetPolicyCommand,
  GetPolicyVersionCommand,
  GetRoleCommand,
  GetRolePolicyCommand,
  IAMClient,
} from '@aws-sdk/client-iam';
import { GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetBucketPolicyCommand, S3Client } from '@aws-sdk/client-s3';
import { GetScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { DescribeStateMachineCommand, SFNClient } from '@aws-sdk/client-sfn';
import { GetTopicAttributesCommand, SNSClient } from '@aws-sdk/client-sns';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Resolver } from './intrinsics';

/** One property compared: `actual` read back through the service API, `expected` from the template. */
export interface Check {
  readonly what: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

type Props = Record<string, unknown>;
type Compare = (id: string, props: Props, r: Resolver) => Promise<Check[]>;

export interface Clients {
  readonly lambda: LambdaClient;
  readonly scheduler: SchedulerClient;
  readonly sfn: SFNClient;
  readonly iam: IAMClient;
  readonly glue: GlueClient;
  readonly cloudwatch: CloudWatchClient;
  readonly s3: S3Client;
  readonly sqs: SQSClient;
  readonly sns: SNSClient;
  readonly athena: AthenaClient;
}

export function clients(config: {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
}): Clients {
  const c = config;
  return {
    lambda: new LambdaClient(c),
    scheduler: new SchedulerClient(c),
    sfn: new SFNClient(c),
    iam: new IAMClient(c),
    glue: new GlueClient(c),
    cloudwatch: new CloudWatchClient(c),
    s3: new S3Client({ ...c, forcePathStyle: true }),
    sqs: new SQSClient(c),
    sns: new SNSClient(c),
    athena: new AthenaClient(c),
  };
}

const json = (text: string | undefined): unknown => (text ? JSON.parse(decodeURIComponent(text)) : undefined);
/** The template's properties named in `keys`, resolved, next to the same keys of `actual`. */
function pick(what: string, keys: string[], props: Props, actual: object | undefined, r: Resolver): Check[] {
  return keys
    .filter((k) => props[k] !== undefined)
    .map((k) => ({
      what: `${what} ${k}`,
      expected: r.resolve(props[k]),
      actual: (actual as Record<string, unknown> | undefined)?.[k],
    }));
}

/** The Lambda ARNs a state machine definition calls (Task resources or LambdaInvoke FunctionName). */
export function lambdaArnsIn(definition: unknown): string[] {
  const found = new Set<string>();
  const walk = (x: unknown): void => {
    if (typeof x === 'string') {
      const m = /^arn:aws:lambda:[^:]+:\d{12}:function:[^:]+/.exec(x);
      if (m) found.add(m[0]);
    } else if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') Object.values(x).forEach(walk);
  };
  walk(definition);
  return [...found].sort();
}

export function comparers(c: Clients): Record<string, Compare> {
  return {
    'AWS::Lambda::Function': async (id, p, r) => {
      const fn = await c.lambda.send(new GetFunctionConfigurationCommand({ FunctionName: id }));
      return [
        ...pick(
          `Lambda ${id}`,
          ['Runtime', 'Handler', 'MemorySize', 'Timeout', 'Role', 'Description'],
          p,
          fn,
          r,
        ),
        {
          what: `Lambda ${id} Environment`,
          expected: r.resolve((p.Environment as Props | undefined)?.Variables),
          actual: fn.Environment?.Variables,
        },
      ];
    },
    'AWS::Scheduler::Schedule': async (id, p, r) => {
      const s = await c.scheduler.send(new GetScheduleCommand({ Name: id }));
      const target = r.resolve(p.Target) as Props;
      return [
        ...pick(
          `Schedule ${id}`,
          ['ScheduleExpression', 'ScheduleExpressionTimezone', 'State', 'FlexibleTimeWindow'],
          p,
          s,
          r,
        ),
        {
          what: `Schedule ${id} input`,
          expected: JSON.parse(String(target.Input)),
          actual: JSON.parse(s.Target?.Input ?? '{}'),
        },
        { what: `Schedule ${id} target`, expected: target.Arn, actual: s.Target?.Arn },
        { what: `Schedule ${id} role`, expected: target.RoleArn, actual: s.Target?.RoleArn },
        { what: `Schedule ${id} retry`, expected: target.RetryPolicy, actual: s.Target?.RetryPolicy },
        { what: `Schedule ${id} DLQ`, expected: target.DeadLetterConfig, actual: s.Target?.DeadLetterConfig },
      ];
    },
    'AWS::StepFunctions::StateMachine': async (id, p, r) => {
      const sm = await c.sfn.send(new DescribeStateMachineCommand({ stateMachineArn: id }));
      return [
        {
          what: `State machine ${id.split(':').pop()} definition`,
          expected: JSON.parse(String(r.resolve(p.DefinitionString))),
          actual: JSON.parse(sm.definition ?? '{}'),
        },
        { what: 'State machine role', expected: r.resolve(p.RoleArn), actual: sm.roleArn },
      ];
    },
    'AWS::IAM::Role': async (id, p, r) => {
      const { Role } = await c.iam.send(new GetRoleCommand({ RoleName: id }));
      return [
        {
          what: `Role ${id} trust policy`,
          expected: r.resolve(p.AssumeRolePolicyDocument),
          actual: json(Role?.AssumeRolePolicyDocument),
        },
      ];
    },
    'AWS::IAM::Policy': async (_id, p, r) => {
      const checks: Check[] = [];
      for (const role of r.resolve(p.Roles) as string[]) {
        const got = await c.iam.send(
          new GetRolePolicyCommand({ RoleName: role, PolicyName: String(p.PolicyName) }),
        );
        checks.push({
          what: `Policy ${String(p.PolicyName)} of ${role}`,
          expected: r.resolve(p.PolicyDocument),
          actual: json(got.PolicyDocument),
        });
      }
      return checks;
    },
    'AWS::IAM::ManagedPolicy': async (arn, p, r) => {
      const { Policy } = await c.iam.send(new GetPolicyCommand({ PolicyArn: arn }));
      const v = await c.iam.send(
        new GetPolicyVersionCommand({ PolicyArn: arn, VersionId: Policy?.DefaultVersionId }),
      );
      return [
        {
          what: `Managed policy ${arn}`,
          expected: r.resolve(p.PolicyDocument),
          actual: json(v.PolicyVersion?.Document),
        },
      ];
    },
    'AWS::Glue::Database': async (name, p, r) => {
      const { Database } = await c.glue.send(new GetDatabaseCommand({ Name: name }));
      return pick(`Glue database ${name}`, ['Name', 'Description'], p.DatabaseInput as Props, Database, r);
    },
    'AWS::Glue::Table': async (name, p, r) => {
      const { Table } = await c.glue.send(
        new GetTableCommand({ DatabaseName: String(r.resolve(p.DatabaseName)), Name: name }),
      );
      const input = p.TableInput as Props;
      const sd = input.StorageDescriptor as Props;
      return [
        ...pick(
          `Glue table ${name}`,
          ['TableType', 'Parameters', 'PartitionKeys', 'Description'],
          input,
          Table,
          r,
        ),
        ...pick(
          `Glue table ${name}`,
          ['Columns', 'Location', 'InputFormat', 'OutputFormat', 'SerdeInfo'],
          sd,
          Table?.StorageDescriptor,
          r,
        ),
      ];
    },
    'AWS::CloudWatch::Alarm': async (name, p, r) => {
      const { MetricAlarms = [] } = await c.cloudwatch.send(
        new DescribeAlarmsCommand({ AlarmNames: [name] }),
      );
      const a = MetricAlarms[0];
      const keys = [
        'MetricName',
        'Namespace',
        'Statistic',
        'Period',
        'EvaluationPeriods',
        'Threshold',
        'ComparisonOperator',
        'TreatMissingData',
        'AlarmActions',
        'AlarmDescription',
        'Dimensions',
      ];
      return pick(`Alarm ${name}`, keys, p, a, r);
    },
    'AWS::S3::BucketPolicy': async (_id, p, r) => {
      const bucket = String(r.resolve(p.Bucket));
      const got = await c.s3.send(new GetBucketPolicyCommand({ Bucket: bucket }));
      return [
        {
          what: `Bucket policy of ${bucket}`,
          expected: r.resolve(p.PolicyDocument),
          actual: json(got.Policy),
        },
      ];
    },
    'AWS::SQS::Queue': async (url, p, r) => {
      const { Attributes = {} } = await c.sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }),
      );
      return [
        {
          what: `Queue ${url} retention`,
          expected: String(r.resolve(p.MessageRetentionPeriod)),
          actual: Attributes.MessageRetentionPeriod,
        },
        {
          what: `Queue ${url} SSE`,
          expected: String(r.resolve(p.SqsManagedSseEnabled)),
          actual: Attributes.SqsManagedSseEnabled,
        },
      ];
    },
    'AWS::SQS::QueuePolicy': async (_id, p, r) => {
      const checks: Check[] = [];
      for (const url of r.resolve(p.Queues) as string[]) {
        const { Attributes = {} } = await c.sqs.send(
          new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['Policy'] }),
        );
        checks.push({
          what: `Queue policy of ${url}`,
          expected: r.resolve(p.PolicyDocument),
          actual: json(Attributes.Policy),
        });
      }
      return checks;
    },
    'AWS::SNS::TopicPolicy': async (_id, p, r) => {
      const checks: Check[] = [];
      for (const arn of r.resolve(p.Topics) as string[]) {
        const { Attributes = {} } = await c.sns.send(new GetTopicAttributesCommand({ TopicArn: arn }));
        checks.push({
          what: `Topic policy of ${arn}`,
          expected: r.resolve(p.PolicyDocument),
          actual: json(Attributes.Policy),
        });
      }
      return checks;
    },
    'AWS::Athena::WorkGroup': async (name, p, r) => {
      const { WorkGroup } = await c.athena.send(new GetWorkGroupCommand({ WorkGroup: name }));
      const expected = r.resolve(p.WorkGroupConfiguration) as Props;
      return [
        {
          what: `Workgroup ${name} results`,
          expected: expected.ResultConfiguration,
          actual: WorkGroup?.Configuration?.ResultConfiguration,
        },
        {
          what: `Workgroup ${name} enforced`,
          expected: expected.EnforceWorkGroupConfiguration,
          actual: WorkGroup?.Configuration?.EnforceWorkGroupConfiguration,
        },
      ];
    },
  };
}
