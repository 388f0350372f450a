/**
 * The run workflow: Plan → Map over the plan's tasks (bounded concurrency) → Finalize.
 *
 * Inside the Map, each report loops Export → Choice: `continue` goes back to Export with the returned
 * `{task, checkpoint}` (a report of any size completes, one Lambda time budget at a time); `done`
 * yields the outcome. A step that fails outright (after the Lambda retries) is caught and becomes
 * `{failed: {reportId, error}}`, which Finalize turns into a `failed` manifest row — one report never
 * crashes the run. Payloads stay small: the checkpoint holds cursors, counts and the top N, no rows.
 *
 * One writer per window: the first Export step of a run takes the window's lease (an S3 object written
 * with `If-None-Match: *`), every step renews it, Finalize releases it. An overlapping execution of the
 * same window gets `WindowBusy` from its Export steps, retried here with back-off (about 7.5 minutes in
 * all) before the report is caught as failed with a message naming the run that holds the window.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';

export interface ExportWorkflowProps {
  readonly plan: lambda.IFunction;
  readonly export: lambda.IFunction;
  readonly finalize: lambda.IFunction;
  /** Reports exported at once. */
  readonly maxConcurrency: number;
  /** @default Duration.hours(12) */
  readonly timeout?: Duration;
}

export class ExportWorkflow extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ExportWorkflowProps) {
    super(scope, id);
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

    const map = new sfn.Map(this, 'ExportReports', {
      itemsPath: '$.plan.tasks',
      itemSelector: { task: sfn.JsonPath.objectAt('$$.Map.Item.Value') },
      maxConcurrency: props.maxConcurrency,
      resultPath: '$.outcomes',
    });
    map.itemProcessor(exportTask.next(more));
    // The Map's results together over 256 KB: Finalize still writes a manifest (every report failed,
    // with the reason) and the run alarms, instead of the execution ending with neither.
    const resultsLost = new sfn.Pass(this, 'ResultsTooLarge', {
      result: sfn.Result.fromArray([]),
      resultPath: '$.outcomes',
    });
    map.addCatch(resultsLost, { errors: ['States.DataLimitExceeded'], resultPath: '$.mapError' });

    const finalizeTask = new tasks.LambdaInvoke(this, 'Finalize', {
      lambdaFunction: props.finalize,
      payloadResponseOnly: true,
      payload: sfn.TaskInput.fromObject({
        plan: sfn.JsonPath.objectAt('$.plan'),
        outcomes: sfn.JsonPath.objectAt('$.outcomes'),
      }),
      resultPath: '$.result',
      outputPath: '$.result',
    });
    finalizeTask.addRetry({ ...retry, interval: Duration.seconds(5), maxAttempts: 3, backoffRate: 2 });

    resultsLost.next(finalizeTask);

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
