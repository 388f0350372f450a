/**
 * Starting runs on time: one EventBridge Scheduler schedule per distinct time of the config's
 * schedules — (cron or rate, IANA timezone, enabled), `scheduleGroups` in core — whose input names
 * every config schedule it fires, `{scheduleIds, scheduledTime}`. It starts the dispatcher
 * (./dispatcher.ts), which starts one workflow run per schedule with `{scheduleId, scheduledTime}` —
 * the scheduled time from Scheduler's `<aws.scheduler.scheduled-time>`, so a retried or late start
 * still exports the window it was meant for. So the stack grows with the distinct times, not the
 * schedules. Failed starts are retried, then land in an encrypted, TLS-only dead-letter queue.
 */
import { Duration, TimeZone, Validations } from 'aws-cdk-lib';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { ScheduleConfig } from '#core/config/schema';
import { scheduleGroups } from '#core/synth';
import { ScheduleDispatcher } from './dispatcher';

export interface ExportSchedulesProps {
  readonly schedules: readonly ScheduleConfig[];
  /** The export workflow: one execution per config schedule and firing. */
  readonly stateMachine: sfn.IStateMachine;
  /** @default 3 */
  readonly retryAttempts?: number;
  /** @default Duration.hours(1) */
  readonly maxEventAge?: Duration;
}

export class ExportSchedules extends Construct {
  readonly deadLetterQueue: sqs.Queue;
  readonly dispatcher: ScheduleDispatcher;
  /** The Scheduler schedules by group key (`g{hash}-{chunk}`). */
  readonly schedules: ReadonlyMap<string, scheduler.Schedule>;

  constructor(scope: Construct, id: string, props: ExportSchedulesProps) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself the dead-letter queue of the Scheduler targets; its depth alarms (Operations), and a DLQ of a DLQ would only move the same messages',
    });
    this.dispatcher = new ScheduleDispatcher(this, 'Dispatcher', { workflow: props.stateMachine });
    const schedules = new Map<string, scheduler.Schedule>();
    for (const group of scheduleGroups(props.schedules)) {
      const target = new targets.StepFunctionsStartExecution(this.dispatcher.stateMachine, {
        input: scheduler.ScheduleTargetInput.fromObject({
          scheduleIds: group.scheduleIds,
          scheduledTime: scheduler.ContextAttribute.scheduledTime,
        }),
        retryAttempts: props.retryAttempts ?? 3,
        maxEventAge: props.maxEventAge ?? Duration.hours(1),
        deadLetterQueue: this.deadLetterQueue,
      });
      const names = group.scheduleIds.join(', ');
      schedules.set(
        group.key,
        new scheduler.Schedule(this, `Schedule-${group.key}`, {
          description: `report-exporter ${group.scheduleIds.length} schedule(s): ${names}`.slice(0, 512),
          schedule: scheduler.ScheduleExpression.expression(group.expression, TimeZone.of(group.timezone)),
          target,
          enabled: group.enabled,
        }),
      );
    }
    this.schedules = schedules;
  }
}
