/**
 * The constructs on their own, for the config variants the example does not cover: a disabled schedule
 * and a rate expression, an existing bucket, an alarm email subscription. No bundling needed here.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '#core/config/load';
import { Monitoring } from '../../infra/constructs/monitoring';
import { ExportSchedules } from '../../infra/constructs/schedules';
import { referenceSecret } from '../../infra/constructs/secret';
import { ExportStorage } from '../../infra/constructs/storage';

const stack = () => new Stack(new App(), 'T', { env: { account: '123456789012', region: 'eu-central-1' } });

describe('ExportSchedules', () => {
  it('creates a disabled schedule for enabled: false, in its timezone', () => {
    const config = validateConfig({
      api: { baseUrl: 'https://reporting.example.com', credentialsSecret: 'x' },
      schedules: [
        {
          id: 'paused',
          cron: 'rate(6 hours)',
          timezone: 'Asia/Tokyo',
          enabled: false,
          window: 'yesterday',
          reports: [{ id: 'list', route: 'campaigns' }],
        },
      ],
    });
    const s = stack();
    const machine = sfn.StateMachine.fromStateMachineArn(
      s,
      'M',
      'arn:aws:states:eu-central-1:123456789012:stateMachine:m',
    );
    new ExportSchedules(s, 'Schedules', { schedules: config.schedules, stateMachine: machine });
    Template.fromStack(s).hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(6 hours)',
      ScheduleExpressionTimezone: 'Asia/Tokyo',
      State: 'DISABLED',
    });
  });
});

describe('ExportStorage', () => {
  it('uses an existing bucket by name and creates none', () => {
    const s = stack();
    const storage = new ExportStorage(s, 'Storage', { existingBucketName: 'team-exports' });
    expect(s.resolve(storage.bucket.bucketName)).toBe('team-exports');
    expect(s.node.findAll().filter((c) => c instanceof s3.CfnBucket)).toEqual([]);
  });
});

describe('referenceSecret', () => {
  it('grants on the name with the 6-character suffix, or on the exact ARN', () => {
    const s = stack();
    expect(s.resolve(referenceSecret(s, 'ByName', 'reporting/v2/client').secretArn)).toEqual({
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':secretsmanager:eu-central-1:123456789012:secret:reporting/v2/client',
        ],
      ],
    });
    const full = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:reporting/v2/client-AbC123';
    expect(referenceSecret(s, 'ByArn', full).secretArn).toBe(full);
  });
});

describe('Monitoring', () => {
  it('subscribes operations.alarmEmail to the alarm topic', () => {
    const s = stack();
    const fn = new lambda.Function(s, 'Fn', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('export const handler = async () => {};'),
    });
    const machine = new sfn.StateMachine(s, 'M', {
      definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(s, 'P')),
    });
    new Monitoring(s, 'Monitoring', {
      stateMachine: machine,
      functions: { Fn: fn },
      deadLetterQueue: new sqs.Queue(s, 'Q'),
      alarmEmail: 'oncall@example.com',
    });
    const t = Template.fromStack(s);
    t.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com' });
    t.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});
