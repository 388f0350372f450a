/**
 * One deployment of report-exporter for one config: bucket, secret reference, the three Lambdas,
 * the workflow, one schedule per config schedule, the Glue catalog and the operations kit.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { bareAddress } from '#core/config/mailbox';
import type { Config } from '#core/config/schema';
import { recipientParameters } from '#core/email/recipients';
import { ExportCatalog } from '../constructs/catalog';
import { ExportFunctions } from '../constructs/functions';
import { Monitoring } from '../constructs/monitoring';
import { ExportSchedules } from '../constructs/schedules';
import { referenceSecret } from '../constructs/secret';
import { ExportStorage } from '../constructs/storage';
import { ExportWorkflow } from '../constructs/workflow';

export interface ExporterStackProps extends StackProps {
  readonly config: Config;
  /** The SES identity to send as (address or domain). @default the bare address of `email.from` */
  readonly sesIdentity?: string;
  /** Reports exported at once by the Map. @default min(4, api.concurrency) */
  readonly mapConcurrency?: number;
  /** @default 'report_exporter' */
  readonly glueDatabaseName?: string;
  /** Write into this existing bucket. @default `output.bucketName`, else a new bucket */
  readonly existingBucketName?: string;
}

/** The config as the Lambdas receive it: validated JSON, base64 (safe as an esbuild define). */
export function embedConfig(config: Config): string {
  return Buffer.from(JSON.stringify(config), 'utf8').toString('base64');
}

export class ExporterStack extends Stack {
  readonly storage: ExportStorage;
  readonly functions: ExportFunctions;
  readonly workflow: ExportWorkflow;
  readonly schedules: ExportSchedules;
  readonly catalog: ExportCatalog;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: ExporterStackProps) {
    super(scope, id, props);
    const { config } = props;
    const mapConcurrency = props.mapConcurrency ?? Math.min(4, config.api.concurrency);

    const existingBucketName = props.existingBucketName ?? config.output.bucketName;
    this.storage = new ExportStorage(this, 'Storage', existingBucketName ? { existingBucketName } : {});
    const bucket = this.storage.bucket;
    const sesIdentity = props.sesIdentity ?? (config.email ? bareAddress(config.email.from) : undefined);
    this.functions = new ExportFunctions(this, 'Functions', {
      embeddedConfig: embedConfig(config),
      bucket,
      prefix: config.output.prefix,
      secret: referenceSecret(this, 'CredentialsSecret', config.api.credentialsSecret),
      ...(sesIdentity ? { sesIdentity } : {}),
      recipientParameters: recipientParameters(config),
      mapConcurrency,
    });
    this.workflow = new ExportWorkflow(this, 'Workflow', {
      plan: this.functions.plan,
      export: this.functions.export,
      finalize: this.functions.finalize,
      maxConcurrency: mapConcurrency,
    });
    this.schedules = new ExportSchedules(this, 'Schedules', {
      schedules: config.schedules,
      stateMachine: this.workflow.stateMachine,
    });
    this.catalog = new ExportCatalog(this, 'Catalog', {
      config,
      bucket,
      ...(props.glueDatabaseName ? { databaseName: props.glueDatabaseName } : {}),
    });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      stateMachine: this.workflow.stateMachine,
      functions: {
        Plan: this.functions.plan,
        Export: this.functions.export,
        Finalize: this.functions.finalize,
      },
      deadLetterQueue: this.schedules.deadLetterQueue,
      ...(config.operations.alarmEmail ? { alarmEmail: config.operations.alarmEmail } : {}),
    });

    new CfnOutput(this, 'BucketName', { value: bucket.bucketName });
    new CfnOutput(this, 'StateMachineArn', { value: this.workflow.stateMachine.stateMachineArn });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn });
    new CfnOutput(this, 'GlueDatabase', { value: this.catalog.databaseName });
  }
}
