/**
 * Template assertions on the stack synthesized from the example reports.yaml (cdk-nag on: a finding
 * would have made synthesis throw): schedules, workflow, Lambdas, least privilege on exact ARNs,
 * bucket, Glue tables, operations, and one normalised snapshot.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { scheduleGroups } from '#core/schedule-groups';
import { definitionOf, resourcesOf, type Synthesized, synthExample } from './synth';

let s: Synthesized;

beforeAll(async () => {
  s = await synthExample();
}, 120_000);

/** A CloudFormation value with intrinsics flattened: `arn:<AWS::Partition>:…`, `<Bucket.Arn>`. */
function flat(value: unknown): unknown {
  if (typeof value === 'string' || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(flat);
  const v = value as Record<string, unknown>;
  if ('Ref' in v) return `<${String(v.Ref)}>`;
  if ('Fn::GetAtt' in v) return `<${(v['Fn::GetAtt'] as string[]).join('.')}>`;
  if ('Fn::Join' in v) {
    const [sep, parts] = v['Fn::Join'] as [string, unknown[]];
    return parts.map((p) => String(flat(p))).join(sep);
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, flat(x)]));
}

interface Statement {
  Action: string | string[];
  Resource: string | string[];
  Effect: string;
  Condition?: unknown;
}

/** The flattened statements of the policies attached to the role whose logical id starts with `rolePrefix`. */
function statementsOf(rolePrefix: string): Statement[] {
  return Object.values(resourcesOf(s.template, 'AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(rolePrefix))
    .flatMap((p) => (flat(p.Properties.PolicyDocument) as { Statement: Statement[] }).Statement);
}

const list = (x: string | string[]) => (Array.isArray(x) ? x : [x]);
const logicalId = (prefix: string, type: string) => {
  const id = Object.keys(resourcesOf(s.template, type)).find((k) => k.startsWith(prefix));
  if (!id) throw new Error(`no ${type} starting with ${prefix}`);
  return id;
};

describe('schedules', () => {
  it('creates one Scheduler schedule per distinct time (cron, IANA timezone), whose input names its schedules', () => {
    const groups = scheduleGroups(s.config.schedules);
    s.template.resourceCountIs('AWS::Scheduler::Schedule', groups.length);
    expect(groups.flatMap((g) => g.scheduleIds)).toEqual(s.config.schedules.map((x) => x.id));
    for (const g of groups) {
      s.template.hasResourceProperties('AWS::Scheduler::Schedule', {
        ScheduleExpression: g.expression,
        ScheduleExpressionTimezone: g.timezone,
        State: 'ENABLED',
        Target: Match.objectLike({
          Input: JSON.stringify({
            scheduleIds: g.scheduleIds,
            scheduledTime: '<aws.scheduler.scheduled-time>',
          }),
          RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 3 },
          DeadLetterConfig: {
            Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^SchedulesDeadLetters'), 'Arn'] },
          },
        }),
      });
    }
  });

  it('targets the dispatcher and carries no secret in its input', () => {
    const sm = logicalId('SchedulesDispatcherStateMachine', 'AWS::StepFunctions::StateMachine');
    for (const sched of Object.values(resourcesOf(s.template, 'AWS::Scheduler::Schedule'))) {
      const target = sched.Properties.Target as { Arn: unknown; Input: string };
      expect(target.Arn).toEqual({ Ref: sm });
      expect(Object.keys(JSON.parse(target.Input))).toEqual(['scheduleIds', 'scheduledTime']);
    }
  });

  it('dispatches one workflow run per schedule id with {scheduleId, scheduledTime}, named so a second delivery starts none', () => {
    const def = definitionOf(s.template, 'SchedulesDispatcherStateMachine') as {
      StartAt: string;
      States: Record<
        string,
        {
          ItemsPath: string;
          ItemSelector: unknown;
          ItemProcessor: { States: Record<string, Record<string, unknown>> };
        }
      >;
    };
    const each = def.States[def.StartAt];
    expect(each).toMatchObject({
      ItemsPath: '$.scheduleIds',
      ItemSelector: { 'scheduleId.$': '$$.Map.Item.Value', 'scheduledTime.$': '$.scheduledTime' },
    });
    const start = each?.ItemProcessor.States.StartRun;
    const workflow = logicalId('WorkflowStateMachine', 'AWS::StepFunctions::StateMachine');
    expect(start).toMatchObject({
      Resource: 'arn:<token>:states:::states:startExecution',
      Parameters: {
        StateMachineArn: '<token>',
        'Name.$': "States.Format('{}-{}', $.scheduleId, States.Hash($.scheduledTime, 'MD5'))",
        Input: { 'scheduleId.$': '$.scheduleId', 'scheduledTime.$': '$.scheduledTime' },
      },
      Catch: [{ ErrorEquals: ['StepFunctions.ExecutionAlreadyExistsException'] }],
    });
    // the one state machine it starts is the workflow
    const [dispatcher] = Object.entries(resourcesOf(s.template, 'AWS::StepFunctions::StateMachine')).filter(
      ([id]) => id.startsWith('SchedulesDispatcher'),
    );
    const refs = JSON.stringify(dispatcher?.[1].Properties.DefinitionString).match(/"Ref":"[^"]+"/g);
    expect(refs?.filter((r) => !r.includes('AWS::'))).toEqual([`"Ref":"${workflow}"`]);
  });

  it('sends failed starts to an encrypted, TLS-only dead-letter queue', () => {
    s.template.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true });
    s.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('workflow', () => {
  it('plans, maps over the tasks with bounded concurrency, loops Export on continue, then finalizes', () => {
    const def = definitionOf(s.template) as {
      StartAt: string;
      States: Record<string, Record<string, unknown>>;
    };
    expect(def.StartAt).toBe('Plan');
    expect(def.States.Plan).toMatchObject({ Type: 'Task', Next: 'ExportReports', ResultPath: '$.plan' });
    const map = def.States.ExportReports as {
      Type: string;
      MaxConcurrency: number;
      Next: string;
      ItemProcessor: {
        ProcessorConfig: unknown;
        StartAt: string;
        States: Record<string, Record<string, unknown>>;
      };
    };
    // a Distributed Map: tasks read from S3 where Plan wrote them, results written to S3 for Finalize
    expect(map).toMatchObject({
      Type: 'Map',
      ItemReader: { ReaderConfig: { InputType: 'JSON' }, Parameters: { 'Key.$': '$.plan.items.key' } },
      ItemSelector: { 'task.$': '$$.Map.Item.Value' },
      ResultWriter: { Parameters: { Prefix: 'exports/_workflow/results' } },
      ResultPath: '$.results',
      ToleratedFailurePercentage: 100,
      Next: 'Finalize',
      MaxConcurrency: 4,
    });
    expect(map.ItemProcessor.ProcessorConfig).toEqual({ Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' });
    const inner = map.ItemProcessor.States;
    expect(map.ItemProcessor.StartAt).toBe('Export');
    expect(inner.Export).toMatchObject({
      Next: 'MorePages?',
      // States.ALL does not match States.DataLimitExceeded: it is caught by name, first
      Catch: [
        { ErrorEquals: ['States.DataLimitExceeded'], ResultPath: '$.error', Next: 'ReportFailed' },
        { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'ReportFailed' },
      ],
    });
    expect(inner['MorePages?']).toMatchObject({
      Type: 'Choice',
      Choices: [{ Variable: '$.status', StringEquals: 'continue', Next: 'Export' }],
      Default: 'ReportDone',
    });
    expect(inner.ReportDone).toMatchObject({ OutputPath: '$.outcome', End: true });
    expect(inner.ReportFailed).toMatchObject({
      Parameters: {
        failed: {
          'reportId.$': '$.task.reportId',
          'window.$': '$.task.window',
          'error.$': 'States.JsonToString($.error)',
        },
      },
    });
    // the Map failing as a whole (its output over the limit by name, anything else by States.ALL)
    // still reaches Finalize, which reports every task failed with the Map's error
    expect(map).toMatchObject({
      Catch: [
        { ErrorEquals: ['States.DataLimitExceeded'], ResultPath: '$.mapError', Next: 'MapFailed' },
        { ErrorEquals: ['States.ALL'], ResultPath: '$.mapError', Next: 'MapFailed' },
      ],
    });
    expect(def.States.MapFailed).toMatchObject({
      Parameters: { 'error.$': 'States.JsonToString($.mapError)' },
      ResultPath: '$.results',
      Next: 'Finalize',
    });
    expect(def.States.Finalize).toMatchObject({
      Parameters: { 'plan.$': '$.plan', 'results.$': '$.results' },
      End: true,
    });
  });

  it('logs ALL events without payloads and traces with X-Ray', () => {
    s.template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      LoggingConfiguration: Match.objectLike({ Level: 'ALL', IncludeExecutionData: false }),
      TracingConfiguration: { Enabled: true },
    });
  });
});

describe('Lambdas', () => {
  it('are Node 22 on arm64, traced with X-Ray, with an explicit log group with retention', () => {
    const fns = resourcesOf(s.template, 'AWS::Lambda::Function');
    expect(Object.keys(fns)).toHaveLength(3);
    for (const fn of Object.values(fns)) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
      });
      const group = (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      expect(resourcesOf(s.template, 'AWS::Logs::LogGroup')[group]?.Properties.RetentionInDays).toBe(30);
    }
  });

  it('carry no credentials in their environment, only names', () => {
    const secretish = /secret|password|token|client_?id|key/i;
    for (const fn of Object.values(resourcesOf(s.template, 'AWS::Lambda::Function'))) {
      const vars = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(Object.keys(vars).filter((k) => secretish.test(k))).toEqual([]);
    }
    s.template.allResourcesProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          REPORTING_CLIENT_ID: Match.absent(),
          REPORTING_CLIENT_SECRET: Match.absent(),
          AWS_ACCESS_KEY_ID: Match.absent(),
          AWS_SECRET_ACCESS_KEY: Match.absent(),
        }),
      },
    });
    expect(JSON.stringify(s.template.toJSON())).not.toMatch(/clientSecret/);
  });

  it('give the Export and Finalize functions the bucket name, the Map concurrency and the bus', () => {
    s.template.hasResourceProperties('AWS::Lambda::Function', {
      Timeout: 900,
      Environment: { Variables: Match.objectLike({ BUCKET_NAME: Match.anyValue(), MAP_CONCURRENCY: '4' }) },
    });
    s.template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ EVENT_BUS_NAME: 'default' }) },
    });
  });
});

describe('least privilege', () => {
  const bucketArn = () => `<${logicalId('StorageExports', 'AWS::S3::Bucket')}.Arn>`;

  it('Export: reads the one secret, writes/deletes under the export prefix, lists with an s3:prefix condition', () => {
    const st = statementsOf('FunctionsExportRole');
    expect(st).toContainEqual(
      expect.objectContaining({
        Action: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
        Resource:
          'arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:reporting/v2/client-??????',
      }),
    );
    expect(st).toContainEqual(
      expect.objectContaining({
        Action: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
        Resource: `${bucketArn()}/exports/*`,
      }),
    );
    expect(st).toContainEqual({
      Effect: 'Allow',
      Action: 's3:ListBucket',
      Resource: bucketArn(),
      Condition: { StringLike: { 's3:prefix': ['exports/*'] } },
    });
  });

  it('Finalize: reads/writes/deletes (lease, staging) under the prefix, sends as the one SES identity, puts events on the one bus', () => {
    const st = statementsOf('FunctionsFinalizeRole');
    // the catalog: read, create and extend the tables of the one database (never delete one)
    const arn = 'arn:<AWS::Partition>:glue:<AWS::Region>:<AWS::AccountId>';
    expect(st).toContainEqual(
      expect.objectContaining({
        Action: ['glue:GetTable', 'glue:CreateTable', 'glue:UpdateTable'],
        Resource: [`${arn}:catalog`, `${arn}:database/report_exporter`, `${arn}:table/report_exporter/*`],
      }),
    );
    expect(JSON.stringify(st)).not.toMatch(/glue:Delete/);
    expect(st).toContainEqual(
      expect.objectContaining({
        Action: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'],
        Resource: `${bucketArn()}/exports/*`,
      }),
    );
    expect(st).toContainEqual(
      expect.objectContaining({
        Action: ['ses:SendEmail', 'ses:SendRawEmail'],
        Resource: 'arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/reports@example.com',
      }),
    );
    expect(st).toContainEqual(
      expect.objectContaining({
        Action: 'events:PutEvents',
        Resource: 'arn:<AWS::Partition>:events:<AWS::Region>:<AWS::AccountId>:event-bus/default',
      }),
    );
    expect(JSON.stringify(st)).not.toMatch(/secretsmanager/);
  });

  it('Plan may only write its logs, its traces and its task lists, and read the one secret’s value (the credentials preflight); no Lambda role has a "*" resource but for X-Ray, or a "*" action', () => {
    const xray = (st: Statement) => list(st.Action).every((a) => a.startsWith('xray:'));
    const plan = statementsOf('FunctionsPlanRole');
    expect(plan.filter((st) => !xray(st)).map((st) => st.Action)).toEqual([
      ['logs:CreateLogStream', 'logs:PutLogEvents'],
      'secretsmanager:GetSecretValue',
      's3:PutObject',
    ]);
    // that one secret's value only: not DescribeSecret, not another secret
    expect(plan.find((st) => st.Action === 'secretsmanager:GetSecretValue')?.Resource).toBe(
      'arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:reporting/v2/client-??????',
    );
    expect(JSON.stringify(plan.find((st) => st.Action === 's3:PutObject')?.Resource)).toContain(
      '/exports/_workflow/tasks/*',
    );
    for (const role of ['FunctionsPlanRole', 'FunctionsExportRole', 'FunctionsFinalizeRole']) {
      const statements = statementsOf(role);
      expect(statements.length, role).toBeGreaterThan(0);
      // Tracing.ACTIVE: X-Ray's two write actions, which have no resource-level permissions
      expect(
        statements.filter(xray).map((st) => [list(st.Action).sort(), st.Resource]),
        role,
      ).toEqual([[['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], '*']]);
      for (const st of statements.filter((x) => !xray(x))) {
        expect(list(st.Resource)).not.toContain('*');
        expect(list(st.Action).filter((a) => a.endsWith(':*'))).toEqual([]);
      }
    }
  });

  it('lets Scheduler start only the dispatcher and write only to its DLQ, and the dispatcher start only the workflow', () => {
    const dispatcher = logicalId('SchedulesDispatcherStateMachine', 'AWS::StepFunctions::StateMachine');
    const sm = logicalId('WorkflowStateMachine', 'AWS::StepFunctions::StateMachine');
    const dlq = logicalId('SchedulesDeadLetters', 'AWS::SQS::Queue');
    expect(statementsOf('SchedulerRoleForTarget').map((st) => [st.Action, st.Resource])).toEqual([
      ['states:StartExecution', `<${dispatcher}>`],
      ['sqs:SendMessage', `<${dlq}.Arn>`],
    ]);
    const starts = statementsOf('SchedulesDispatcherStateMachineRole').filter((st) =>
      JSON.stringify(st.Action).includes('states:'),
    );
    expect(starts.map((st) => [st.Action, st.Resource])).toEqual([['states:StartExecution', `<${sm}>`]]);
  });

  it('lets the state machine invoke only the three functions', () => {
    const invokes = statementsOf('WorkflowStateMachineRole').filter(
      (st) => st.Action === 'lambda:InvokeFunction',
    );
    const targets = invokes.flatMap((st) => list(st.Resource)).sort();
    const fns = ['FunctionsExportFunction', 'FunctionsFinalizeFunction', 'FunctionsPlanFunction'].map((p) =>
      logicalId(p, 'AWS::Lambda::Function'),
    );
    expect(targets).toEqual(fns.flatMap((f) => [`<${f}.Arn>`, `<${f}.Arn>:*`]).sort());
  });

  it('uses no AWS managed policies on the Lambda roles', () => {
    const roles = Object.entries(resourcesOf(s.template, 'AWS::IAM::Role')).filter(([id]) =>
      /^Functions(Plan|Export|Finalize)Role/.test(id),
    );
    expect(roles.map(([id]) => id.replace(/Role.*/, 'Role')).sort()).toEqual([
      'FunctionsExportRole',
      'FunctionsFinalizeRole',
      'FunctionsPlanRole',
    ]);
    for (const [, role] of roles) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });
});

describe('bucket', () => {
  it('is private, encrypted, logs access and aborts incomplete multipart uploads', () => {
    s.template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }),
        ]),
      },
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 'exports-bucket/' }),
    });
  });

  it('denies every request that is not TLS', () => {
    const exports = logicalId('StorageExports', 'AWS::S3::Bucket');
    s.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: exports },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });
});

describe('Glue catalog', () => {
  it('has the database and no table: the workflow creates and extends the tables, so the stack does not grow per report', () => {
    s.template.resourceCountIs('AWS::Glue::Database', 1);
    s.template.resourceCountIs('AWS::Glue::Table', 0);
    s.template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^report-exporter: manifest'),
      Environment: { Variables: Match.objectLike({ GLUE_DATABASE: 'report_exporter' }) },
    });
  });
});

describe('operations', () => {
  it('alarms into an encrypted topic on failed, timed-out or partial runs, report warnings, Lambda errors and DLQ depth', () => {
    s.template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    const alarms = Object.values(resourcesOf(s.template, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties);
    const names = alarms.map((a) => `${String(a.Namespace)}/${String(a.MetricName)}`).sort();
    expect(names).toEqual(
      [
        'AWS/Lambda/Errors',
        'AWS/Lambda/Errors',
        'AWS/Lambda/Errors',
        'AWS/SQS/ApproximateNumberOfMessagesVisible',
        'AWS/States/ExecutionsAborted',
        'AWS/States/ExecutionsFailed',
        'AWS/States/ExecutionsFailed', // the dispatcher
        'AWS/States/ExecutionsTimedOut',
        'ReportExporter/runsNotSucceeded',
        'ReportExporter/reportWarnings',
      ].sort(),
    );
    const topic = logicalId('MonitoringAlarms', 'AWS::SNS::Topic');
    for (const a of alarms) expect(a.AlarmActions).toEqual([{ Ref: topic }]);
  });

  it('has a dashboard of runs, failures, rows exported and duration', () => {
    const [dash] = Object.values(resourcesOf(s.template, 'AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(flat(dash?.Properties.DashboardBody));
    for (const text of [
      'Runs',
      'Failures',
      'Rows exported',
      'Duration',
      'rowsExported',
      'ExecutionsFailed',
    ]) {
      expect(body).toContain(text);
    }
  });
});

describe('snapshot', () => {
  it('matches the normalised template (asset hashes stripped)', () => {
    const text = JSON.stringify(s.template.toJSON(), null, 1).replace(
      /[0-9a-f]{64}(\.zip)?/g,
      '<asset-hash>',
    );
    expect(JSON.parse(text)).toMatchSnapshot();
  });
});
