/**
 * The dispatcher: a small state machine that a grouped Scheduler schedule starts with
 * `{scheduleIds, scheduledTime}`, and that starts one run of the export workflow per schedule id with
 * `{scheduleId, scheduledTime}` — the input a run had when each schedule had its own Scheduler
 * schedule, so a run, its history and its alarms are as before.
 *
 * Each run is started under a name made of the schedule id and a hash of the scheduled time, so a
 * second delivery of the same firing (Scheduler delivers at least once; a retried dispatcher) starts
 * no second run: Step Functions answers a start with the same name and input with the running
 * execution, and `ExecutionAlreadyExists` once it finished, which is caught as done.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';

export interface ScheduleDispatcherProps {
  /** The export workflow, one execution per schedule. */
  readonly workflow: sfn.IStateMachine;
  /** Runs started at once. @default 10 */
  readonly maxConcurrency?: number;
}

export class ScheduleDispatcher extends Construct {
  readonly stateMachine: sfn.StateMachine;

  constructor(scope: Construct, id: string, props: ScheduleDispatcherProps) {
    super(scope, id);
    const start = new tasks.StepFunctionsStartExecution(this, 'StartRun', {
      stateMachine: props.workflow,
      integrationPattern: sfn.IntegrationPattern.REQUEST_RESPONSE,
      name: sfn.JsonPath.format(
        '{}-{}',
        sfn.JsonPath.stringAt('$.scheduleId'),
        sfn.JsonPath.hash(sfn.JsonPath.stringAt('$.scheduledTime'), 'MD5'),
      ),
      input: sfn.TaskInput.fromObject({
        scheduleId: sfn.JsonPath.stringAt('$.scheduleId'),
        scheduledTime: sfn.JsonPath.stringAt('$.scheduledTime'),
      }),
      resultPath: sfn.JsonPath.DISCARD,
    });
    // the run of this firing exists already (a second delivery): done, never retried
    start.addRetry({ errors: ['StepFunctions.ExecutionAlreadyExistsException'], maxAttempts: 0 });
    start.addRetry({ errors: ['States.ALL'], interval: Duration.seconds(2), maxAttempts: 6, backoffRate: 2 });
    start.addCatch(new sfn.Pass(this, 'AlreadyStarted'), {
      errors: ['StepFunctions.ExecutionAlreadyExistsException'],
      resultPath: sfn.JsonPath.DISCARD,
    });
    const each = new sfn.Map(this, 'EachSchedule', {
      itemsPath: '$.scheduleIds',
      itemSelector: {
        scheduleId: sfn.JsonPath.stringAt('$$.Map.Item.Value'),
        scheduledTime: sfn.JsonPath.stringAt('$.scheduledTime'),
      },
      maxConcurrency: props.maxConcurrency ?? 10,
      resultPath: sfn.JsonPath.DISCARD,
    });
    each.itemProcessor(start);

    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      comment: 'report-exporter: start one run per schedule of a Scheduler firing',
      definitionBody: sfn.DefinitionBody.fromChainable(each),
      timeout: Duration.minutes(15),
      tracingEnabled: true,
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });
    Validations.of(this.stateMachine.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray trace segments and CloudWatch Logs log delivery (logs:CreateLogDelivery etc.) do not support resource-level permissions; these are the actions CDK grants for tracing and state machine logging',
    });
  }
}
