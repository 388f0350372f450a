/**
 * One deployment of report-exporter for one config: bucket, secret reference, the three Lambdas,
 * the workflow, one schedule per config schedule, the Glue catalog and the operations kit.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CfnOutput, RemovalPolicy, Stack, type StackProps, Stage, Tags } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { bareAddress } from '#core/config/mailbox';
import type { Config } from '#core/config/schema';
import { recipientParameters } from '#core/synth';
import { DEFAULT_DATABASE, ExportCatalog } from '../constructs/catalog';
import { ExportConsumers } from '../constructs/consumers';
import { ExportFunctions, type ExportVpcPlacement } from '../constructs/functions';
import { Monitoring } from '../constructs/monitoring';
import { ExportSchedules } from '../constructs/schedules';
import { referenceSecret } from '../constructs/secret';
import { ExportStorage } from '../constructs/storage';
import { ExportWorkflow } from '../constructs/workflow';

export interface ExporterStackProps extends StackProps {
  readonly config: Config;
  /** The SES identity to send as (address or domain). @default the bare address of `email.from` */
  readonly sesIdentity?: string;
  /**
   * The account is in the SES sandbox: the Finalize role may also send to the identities of every
   * recipient in the config (each address, and its domain). @default false
   */
  readonly sesSandbox?: boolean;
  /** Reports exported at once by the Map. @default min(4, api.concurrency) */
  readonly mapConcurrency?: number;
  /** @default 'report_exporter' */
  readonly glueDatabaseName?: string;
  /** Write into this existing bucket. @default `output.bucketName`, else a new bucket */
  readonly existingBucketName?: string;
}

/**
 * Writes the config as the Lambdas receive it (validated JSON) into the app's output folder, named by
 * its content, and returns the file's path: each function's bundle copies it in.
 */
export function writeBundledConfig(config: Config, outdir: string): string {
  const text = JSON.stringify(config);
  const sha = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const dir = join(outdir, 'report-exporter-config');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${sha}.json`);
  writeFileSync(file, text);
  return file;
}

/**
 * Every literal recipient's and operator's SES identities: the address and its domain (either may be
 * the verified one), in config order, each once.
 */
export function recipientIdentities(config: Config): string[] {
  // Lists read from SSM at send time are not known here: their addresses must be verified by hand.
  const entries = [
    ...(config.email?.operators ?? []),
    ...config.schedules.flatMap((s) => [...s.recipients, ...s.operators]),
  ];
  const addresses = entries.filter((r) => !r.startsWith('ssm:')).map((r) => r.trim().toLowerCase());
  return [...new Set(addresses.flatMap((a) => [a, a.slice(a.lastIndexOf('@') + 1)]))];
}

export class ExporterStack extends Stack {
  readonly storage: ExportStorage;
  readonly functions: ExportFunctions;
  readonly workflow: ExportWorkflow;
  readonly schedules: ExportSchedules;
  readonly catalog: ExportCatalog;
  readonly monitoring: Monitoring;
  readonly consumers: ExportConsumers;

  constructor(scope: Construct, id: string, props: ExporterStackProps) {
    super(scope, id, props);
    const { config } = props;
    const mapConcurrency = props.mapConcurrency ?? Math.min(4, config.api.concurrency);

    const { deploy } = config;
    for (const [key, value] of Object.entries(deploy.tags)) Tags.of(this).add(key, value);

    const existingBucketName = props.existingBucketName ?? config.output.bucketName;
    this.storage = new ExportStorage(this, 'Storage', {
      ...(existingBucketName ? { existingBucketName } : {}),
      removalPolicy: deploy.removalPolicy === 'destroy' ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
      ...(deploy.bucketKmsKeyArn
        ? { encryptionKey: kms.Key.fromKeyArn(this, 'BucketKey', deploy.bucketKmsKeyArn) }
        : {}),
      ...(deploy.retention ? { retention: deploy.retention } : {}),
      prefix: config.output.prefix,
    });
    const bucket = this.storage.bucket;
    const sesIdentity = props.sesIdentity ?? (config.email ? bareAddress(config.email.from) : undefined);
    this.functions = new ExportFunctions(this, 'Functions', {
      configFile: writeBundledConfig(config, Stage.of(this)?.outdir ?? 'cdk.out'),
      bucket,
      prefix: config.output.prefix,
      secret: referenceSecret(this, 'CredentialsSecret', config.api.credentialsSecret),
      ...(sesIdentity ? { sesIdentity } : {}),
      recipientParameters: recipientParameters(config),
      ...(props.sesSandbox && sesIdentity ? { sesRecipientIdentities: recipientIdentities(config) } : {}),
      mapConcurrency,
      glueDatabaseName: props.glueDatabaseName ?? DEFAULT_DATABASE,
      ...(deploy.secretKmsKeyArn ? { secretKeyArn: deploy.secretKmsKeyArn } : {}),
      ...(deploy.bucketKmsKeyArn ? { bucketKeyArn: deploy.bucketKmsKeyArn } : {}),
      ...(deploy.vpc ? { exportVpc: this.vpcPlacement(deploy.vpc) } : {}),
    });
    this.workflow = new ExportWorkflow(this, 'Workflow', {
      plan: this.functions.plan,
      export: this.functions.export,
      finalize: this.functions.finalize,
      bucket,
      prefix: config.output.prefix,
      maxConcurrency: mapConcurrency,
      ...(deploy.bucketKmsKeyArn ? { bucketKeyArn: deploy.bucketKmsKeyArn } : {}),
    });
    this.schedules = new ExportSchedules(this, 'Schedules', {
      schedules: config.schedules,
      stateMachine: this.workflow.stateMachine,
    });
    this.catalog = new ExportCatalog(this, 'Catalog', {
      databaseName: props.glueDatabaseName ?? DEFAULT_DATABASE,
    });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      stateMachine: this.workflow.stateMachine,
      dispatcher: this.schedules.dispatcher.stateMachine,
      functions: {
        Plan: this.functions.plan,
        Export: this.functions.export,
        Finalize: this.functions.finalize,
      },
      deadLetterQueue: this.schedules.deadLetterQueue,
      ...(config.operations.alarmEmail ? { alarmEmail: config.operations.alarmEmail } : {}),
    });

    this.consumers = new ExportConsumers(this, 'Consumers', {
      bucket,
      prefix: config.output.prefix,
      databaseName: this.catalog.databaseName,
      athenaWorkgroup: deploy.athenaWorkgroup,
      ...(deploy.bucketKmsKeyArn ? { bucketKeyArn: deploy.bucketKmsKeyArn } : {}),
    });

    new CfnOutput(this, 'BucketName', { value: bucket.bucketName });
    new CfnOutput(this, 'StateMachineArn', { value: this.workflow.stateMachine.stateMachineArn });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn });
    new CfnOutput(this, 'GlueDatabase', { value: this.catalog.databaseName });
    new CfnOutput(this, 'ConsumerPolicyArn', {
      value: this.consumers.policy.managedPolicyArn,
      description: 'Attach to the roles that read the exports and query them in Athena',
    });
    if (this.consumers.workgroup) {
      new CfnOutput(this, 'AthenaWorkgroup', { value: this.consumers.workgroup.ref });
    }
  }

  /** `deploy.vpc` as constructs: the VPC, its private subnets and security groups (no lookups). */
  private vpcPlacement(vpc: NonNullable<Config['deploy']['vpc']>): ExportVpcPlacement {
    const imported = ec2.Vpc.fromVpcAttributes(this, 'Vpc', {
      vpcId: vpc.vpcId,
      availabilityZones: this.availabilityZones,
    });
    return {
      vpc: imported,
      subnets: vpc.subnetIds.map((id, i) => ec2.Subnet.fromSubnetId(this, `Subnet${i}`, id)),
      ...(vpc.securityGroupIds
        ? {
            securityGroups: vpc.securityGroupIds.map((id, i) =>
              ec2.SecurityGroup.fromSecurityGroupId(this, `SecurityGroup${i}`, id),
            ),
          }
        : {}),
    };
  }
}
