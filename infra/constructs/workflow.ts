/**
 * The run workflow: Plan → Distributed Map over the plan's (window × report) tasks (bounded
 * concurrency) → Finalize.
 *
 * With lookback a run has a task per (window, report) — up to 29 windows × every report — so the
 * tasks and their results do not pass through the state: Plan writes the task list to S3, the
 * Distributed Map reads it (ItemReader) and writes each child execution's result to S3
 * (ResultWriter), and Finalize reads them back. Each task runs as its own child execution (STANDARD:
 * a report may continue for hours), so no history or payload limit of the parent grows with the
 * number of tasks; `maxConcurrency` bounds how many run at once, as before.
 *
 * Inside the Map, each report loops Export → Choice: `continue` goes back to Export with the returned
 * `{task, checkpoint}` (a report of any size completes, one Lambda time budget at a time); `done`
 * yields the outcome. A step that fails outright (after the Lambda retries) is caught and becomes
 * `{failed: {reportId, window, error}}`, which Finalize turns into a `failed` manifest row — one report
 * never crashes the run (and a child execution that fails anyway is tolerated: Finalize reports it).
 * Payloads stay small: the checkpoint holds cursors, counts and the top N, no rows.
 *
 * One writer per window: the first Export step of a run takes the window's lease (an S3 object written
 * with `If-None-Match: *`), every step renews it, Finalize releases it. An overlapping execution of the
 * same window gets `WindowBusy` from its Export steps, retried here with back-off (about 7.5 minutes in
 * all) before the report is caught as failed with a message naming the run that holds the window.
 */
import { Duration, RemovalPolicy, Token, Validations } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { STEPFUNCTIONS_USE_DISTRIBUTED_MAP_RESULT_WRITER_V2 } from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';
import { mapResultsPrefix } from '#core/synth';
import { BUCKET_WRITE_KEY_ACTIONS, kmsViaService } from './kms-grants';

export interface ExportWorkflowProps {
  readonly plan: lambda.IFunction;
  readonly export: lambda.IFunction;
  readonly finalize: lambda.IFunction;
  /** The exports bucket: the task list and the Map's results live under `{prefix}_workflow/`. */
  readonly bucket: s3.IBucket;
  /** `output.prefix` of the config. */
  readonly prefix: string;
  /** Reports exported at once. */
  readonly maxConcurrency: number;
  /** The bucket's SSE-KMS key, when it has one: the Map reads its items and writes its results with it. */
  readonly bucketKeyArn?: string;
  /** @default Duration.hours(12) */
  readonly timeout?: Duration;
}

export class ExportWorkflow extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ExportWorkflowProps) {
    super(scope, id);
    // ResultWriterV2 (bucket, prefix) is rendered only under this flag; set here, so the app's
    // context (cdk.json or not) cannot drop the Map's result writer.
    this.node.setContext(STEPFUNCTIONS_USE_DISTRIBUTED_MAP_RESULT_WRITER_V2, true);
    // Throttling of the Lambdas themselves (service errors are retried by LambdaInvoke already).
    const retry = { errors: ['Lambda.TooManyRequestsException'] };

    const planTask = new tasks.LambdaInvoke(this, 'Plan', {
      lambdaFunction: props.plan,
      payloadResponseOnly: true,
      resultPath: '$.plan',
    });
    planTask.addRetry({ ...retry, interval: Duration.seconds(5), maxAttempts: 3, backoffRate: 2 });

    const exportTask = new tasks.LambdaInvoke(this, 'Export', {
      lambdaFunction: props.export,
      payloadResponseOnly: true,
      retryOnServiceExceptions: true,
    });
    exportTask.addRetry({ ...retry, interval: Duration.seconds(5), maxAttempts: 3, backoffRate: 2 });
    exportTask.addRetry({
      errors: ['WindowBusy'],
      interval: Duration.seconds(30),
      maxAttempts: 4,
      backoffRate: 2,
    });
    const failed = new sfn.Pass(this, 'ReportFailed', {
      parameters: {
        failed: {
          reportId: sfn.JsonPath.stringAt('$.task.reportId'),
          window: sfn.JsonPath.objectAt('$.task.window'),
          error: sfn.JsonPath.jsonToString(sfn.JsonPath.objectAt('$.error')),
        },
      },
    });
    // States.ALL does not match States.DataLimitExceeded (a result over 256 KB): caught by name
    exportTask.addCatch(failed, { errors: ['States.DataLimitExceeded'], resultPath: '$.error' });
    exportTask.addCatch(failed, { errors: ['States.ALL'], resultPath: '$.error' });
    const done = new sfn.Pass(this, 'ReportDone', { outputPath: '$.outcome' });
    const more = new sfn.Choice(this, 'MorePages?')
      .when(sfn.Condition.stringEquals('$.status', 'continue'), exportTask)
      .otherwise(done);

    const map = new sfn.DistributedMap(this, 'ExportReports', {
      itemReader: new sfn.S3JsonItemReader({
        bucket: props.bucket,
        key: sfn.JsonPath.stringAt('$.plan.items.key'),
      }),
      // the plan's credentials preflight goes with each task's first step (no token: only its answer)
      itemSelector: {
        task: sfn.JsonPath.objectAt('$$.Map.Item.Value'),
        credentials: sfn.JsonPath.objectAt('$.plan.credentials'),
      },
      maxConcurrency: props.maxConcurrency,
      mapExecutionType: sfn.StateMachineType.STANDARD,
      // Caught failures are results already; a child that fails anyway becomes a failed row in Finalize.
      toleratedFailurePercentage: 100,
      resultWriterV2: new sfn.ResultWriterV2({
        bucket: props.bucket,
        prefix: mapResultsPrefix(props.prefix),
      }),
      resultPath: '$.results',
    });
    map.itemProcessor(exportTask.next(more));
    // The Map itself failing (task list unreadable, results unwritable, its output over the payload
    // limit — which States.ALL does not match, so it is caught by name) still ends in Finalize, which
    // then writes a manifest with every report failed and the reason, so the run alarms with a record.
    const mapFailed = new sfn.Pass(this, 'MapFailed', {
      parameters: { error: sfn.JsonPath.jsonToString(sfn.JsonPath.objectAt('$.mapError')) },
      resultPath: '$.results',
    });
    map.addCatch(mapFailed, { errors: ['States.DataLimitExceeded'], resultPath: '$.mapError' });
    map.addCatch(mapFailed, { errors: ['States.ALL'], resultPath: '$.mapError' });

    const finalizeTask = new tasks.LambdaInvoke(this, 'Finalize', {
      lambdaFunction: props.finalize,
      payloadResponseOnly: true,
      payload: sfn.TaskInput.fromObject({
        plan: sfn.JsonPath.objectAt('$.plan'),
        results: sfn.JsonPath.objectAt('$.results'),
      }),
      resultPath: '$.result',
      outputPath: '$.result',
    });
    finalizeTask.addRetry({ ...retry, interval: Duration.seconds(5), maxAttempts: 3, backoffRate: 2 });
    mapFailed.next(finalizeTask);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      comment: 'report-exporter: plan, export every report (continuing as needed), finalize',
      definitionBody: sfn.DefinitionBody.fromChainable(planTask.next(map).next(finalizeTask)),
      timeout: props.timeout ?? Duration.hours(12),
      tracingEnabled: true,
      // ALL events for the audit trail, but no payloads (rows of the summary's top N) in the logs.
      logs: { destination: this.logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });
    acknowledgeWorkflowRole(this.stateMachine, [props.plan, props.export, props.finalize]);
    acknowledgeDistributedMap(this.stateMachine, props.bucket);
    if (props.bucketKeyArn) {
      this.stateMachine.addToRolePolicy(
        kmsViaService(this.stateMachine.stack, props.bucketKeyArn, 's3', BUCKET_WRITE_KEY_ACTIONS),
      );
    }
  }
}

function acknowledgeWorkflowRole(machine: sfn.StateMachine, fns: readonly lambda.IFunction[]): void {
  const v = Validations.of(machine.role);
  v.acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'X-Ray trace segments and CloudWatch Logs log delivery (logs:CreateLogDelivery etc.) do not support resource-level permissions; these are the actions CDK grants for tracing and state machine logging',
  });
  for (const fn of fns) {
    const logicalId = machine.stack.resolve((fn.node.defaultChild as lambda.CfnFunction).logicalId);
    v.acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>:*]`,
      reason:
        'lambda:InvokeFunction on the versions and aliases of this one function (the ":*" qualifier CDK adds for LambdaInvoke); no other function is reachable',
    });
  }
}

/**
 * What the Distributed Map needs beyond the Lambdas: S3 on the task list and the results (CDK grants
 * them on the bucket's objects), and starting, describing and stopping its own child executions.
 */
function acknowledgeDistributedMap(machine: sfn.StateMachine, bucket: s3.IBucket): void {
  const stack = machine.stack;
  const child = bucket.node.defaultChild as { logicalId?: string } | undefined;
  const bucketRef = child?.logicalId ? `<${stack.resolve(child.logicalId)}>` : bucket.bucketName;
  Validations.of(machine.role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${bucketRef}/*]`,
    reason:
      "The Distributed Map's ItemReader (s3:GetObject of the run's task list) and ResultWriter (s3:PutObject of its results, under a key with the Map run's id): CDK grants these on the exports bucket's objects; the Lambdas' own grants stay limited to the prefix",
  });
  const policy = machine.node.tryFindChild('DistributedMapPolicy');
  if (!policy) return;
  // nag writes the state machine's name as the token CDK derives it with from the ARN
  const logicalId = stack.resolve((machine.node.defaultChild as sfn.CfnStateMachine).logicalId);
  const name = JSON.stringify({ 'Fn::Select': [6, { 'Fn::Split': [':', { Ref: logicalId }] }] });
  const literal = (v: string, pseudo: string) => (Token.isUnresolved(v) ? `<${pseudo}>` : v);
  const executions = `arn:<AWS::Partition>:states:${literal(stack.region, 'AWS::Region')}:${literal(stack.account, 'AWS::AccountId')}:execution:${name}`;
  const reason =
    "The Distributed Map describes, stops and redrives its own child executions, whose names Step Functions generates per Map run; limited to this state machine's executions";
  Validations.of(policy).acknowledge({ id: `AwsSolutions-IAM5[Resource::${executions}:*]`, reason });
  Validations.of(policy).acknowledge({ id: `AwsSolutions-IAM5[Resource::${executions}/*:*]`, reason });
}
