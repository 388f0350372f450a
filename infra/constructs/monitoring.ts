/**
 * Operations: an encrypted, TLS-only SNS topic for alarms (optionally an email subscription from
 * `operations.alarmEmail`), alarms on workflow executions that fail or time out, runs that finish
 * partial or failed, reports that succeeded with silent-loss warnings, Lambda errors and
 * dead-letter-queue depth, and a dashboard of runs, failures, rows exported and duration.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { METRIC, METRICS_DIMENSIONS, METRICS_NAMESPACE, type MetricName } from '#handlers/metric-names';

export interface MonitoringProps {
  readonly stateMachine: sfn.StateMachine;
  /** The dispatcher the Scheduler schedules start (one run per schedule of a firing). */
  readonly dispatcher?: sfn.StateMachine;
  readonly functions: Readonly<Record<string, lambda.IFunction>>;
  readonly deadLetterQueue: sqs.IQueue;
  readonly alarmEmail?: string;
}

export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: readonly cloudwatch.Alarm[];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    // A customer-managed key: CloudWatch alarms cannot publish to a topic under the AWS-managed SNS key.
    const key = new kms.Key(this, 'TopicKey', {
      enableKeyRotation: true,
      description: 'report-exporter alarm topic encryption',
    });
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );
    this.topic = new sns.Topic(this, 'Alarms', { masterKey: key, enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));

    const custom = (metricName: MetricName, statistic = 'Sum', period = Duration.hours(1)) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { ...METRICS_DIMENSIONS },
        statistic,
        period,
      });

    const sm = props.stateMachine;
    const fiveMin = { period: Duration.minutes(5), statistic: 'Sum' };
    const alarms: cloudwatch.Alarm[] = [
      this.alarm('ExecutionsFailed', sm.metricFailed(fiveMin), 'A report-exporter run failed'),
      this.alarm('ExecutionsTimedOut', sm.metricTimedOut(fiveMin), 'A report-exporter run timed out'),
      this.alarm('ExecutionsAborted', sm.metricAborted(fiveMin), 'A report-exporter run was aborted'),
      ...(props.dispatcher
        ? [
            this.alarm(
              'DispatchFailed',
              props.dispatcher.metricFailed(fiveMin),
              'The runs of a Scheduler firing could not all be started (see the dispatcher execution)',
            ),
          ]
        : []),
      ...Object.entries(props.functions).map(([name, fn]) =>
        this.alarm(`${name}Errors`, fn.metricErrors(fiveMin), `The ${name} Lambda raised an error`),
      ),
      this.alarm(
        'DeadLetters',
        props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(5),
          statistic: 'Maximum',
        }),
        'A scheduled run could not be started (message in the Scheduler dead-letter queue)',
      ),
      // A run whose reports failed on the API side (e.g. a rejected secret) still succeeds as an
      // execution: the Finalize metric makes it alarm too.
      this.alarm(
        'RunsNotSucceeded',
        custom(METRIC.runsNotSucceeded, 'Sum', Duration.minutes(5)),
        'A report-exporter run finished partial or failed (see the manifest and the summary email)',
      ),
      // A report that succeeded although the API's answers suggest missing data (a requested metric
      // absent from every row, paging stopped at a full page without a cursor, rows without their
      // identifying fields, repeated rows): the run is green, so only this metric makes it alarm.
      this.alarm(
        'ReportWarnings',
        custom(METRIC.reportWarnings, 'Sum', Duration.minutes(5)),
        'A report succeeded with silent-loss warnings: its data may be incomplete (see "warnings" in the manifest, the log and the summary email; run report-exporter check)',
      ),
    ];
    this.alarms = alarms;

    const hourly = { period: Duration.hours(1), statistic: 'Sum' };
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      widgets: [
        [
          new cloudwatch.GraphWidget({
            title: 'Runs',
            left: [sm.metricStarted(hourly), sm.metricSucceeded(hourly)],
          }),
          new cloudwatch.GraphWidget({
            title: 'Failures',
            left: [
              sm.metricFailed(hourly),
              sm.metricTimedOut(hourly),
              custom(METRIC.runsNotSucceeded),
              custom(METRIC.reportsFailed),
              custom(METRIC.reportWarnings),
            ],
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Rows exported',
            left: [custom(METRIC.rowsExported), custom(METRIC.rows)],
            right: [custom(METRIC.pages), custom(METRIC.retries), custom(METRIC.continuations)],
          }),
          new cloudwatch.GraphWidget({
            title: 'Duration',
            left: [
              sm.metricTime({ period: Duration.hours(1), statistic: 'Maximum' }),
              custom(METRIC.exportDuration, 'Maximum'),
            ],
          }),
        ],
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms, width: 24 })],
      ],
    });
  }

  private alarm(id: string, metric: cloudwatch.IMetric, description: string): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    alarm.addAlarmAction(new actions.SnsAction(this.topic));
    return alarm;
  }
}
