/**
 * One EventBridge Scheduler schedule per config schedule: its cron (or rate) in its IANA timezone,
 * enabled or not, starting the workflow with `{scheduleId, scheduledTime}` — the scheduled time from
 * Scheduler's `<aws.scheduler.scheduled-time>`, so a retried or late start still exports the window
 * it was meant for. Failed starts are retried, then land in an encrypted, TLS-only dead-letter queue.
 */
import { Duration, TimeZone, Validations } from 'aws-cdk-lib';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { ScheduleConfig } from '#core/config/schema';

export interface ExportSchedulesProps {
  readonly schedules: readonly ScheduleConfig[];
  readonly stateMachine: sfn.IStateMachine;
  /** @default 3 */
  readonly retryAttempts?: number;
  /** @default Duration.hours(1) */
  readonly maxEventAge?: Duration;
}

/** A config `cron` (`0 8 ? * MON *`, `cron(...)` or `rate(...)`) as a Scheduler expression. */
export function schedulerExpression(cron: string): string {
  const text = cron.trim();
  return /^(cron|rate)\(/.test(text) ? text : `cron(${text})`;
}

export class ExportSchedules extends Construct {
  readonly deadLetterQueue: sqs.Queue;
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
    const schedules = new Map<string, scheduler.Schedule>();
    for (const s of props.schedules) {
      const target = new targets.StepFunctionsStartExecution(props.stateMachine, {
        input: scheduler.ScheduleTargetInput.fromObject({
          scheduleId: s.id,
          scheduledTime: scheduler.ContextAttribute.scheduledTime,
        }),
        retryAttempts: props.retryAttempts ?? 3,
        maxEventAge: props.maxEventAge ?? Duration.hours(1),
        deadLetterQueue: this.deadLetterQueue,
      });
      schedules.set(
        s.id,
        new scheduler.Schedule(this, `Schedule-${s.id}`, {
          description: `report-exporter ${s.id}: ${s.description ?? s.window}`.slice(0, 512),
          schedule: scheduler.ScheduleExpression.expression(
            schedulerExpression(s.cron),
            TimeZone.of(s.timezone),
          ),
          target,
          enabled: s.enabled,
        }),
      );
    }
    this.schedules = schedules;
  }
}
