/**
 * What consumers of the exports get: one IAM managed policy (an output of the stack) to attach to
 * their roles, users or groups — read the export prefix, the Glue database and its tables, and query
 * them through the stack's Athena workgroup (results under `athena-results/`, encrypted like the
 * exports). Nothing here can write or delete an export.
 */
import { Stack, Token, Validations } from 'aws-cdk-lib';
import * as athena from 'aws-cdk-lib/aws-athena';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { BUCKET_WRITE_KEY_ACTIONS, kmsViaService } from './kms-grants';
import { ATHENA_RESULTS_PREFIX, nagBucketArn } from './storage';

export interface ExportConsumersProps {
  readonly bucket: s3.IBucket;
  /** `output.prefix` ('' or ending in '/'). */
  readonly prefix: string;
  readonly databaseName: string;
  /** The bucket's SSE-KMS key, when it has one. */
  readonly bucketKeyArn?: string;
  /** @default true */
  readonly athenaWorkgroup?: boolean;
}

export class ExportConsumers extends Construct {
  readonly policy: iam.ManagedPolicy;
  readonly workgroup?: athena.CfnWorkGroup;

  constructor(scope: Construct, id: string, props: ExportConsumersProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { bucket, prefix, databaseName } = props;
    const statements = [
      new iam.PolicyStatement({
        sid: 'ReadExports',
        actions: ['s3:GetObject'],
        resources: [`${bucket.bucketArn}/${prefix}*`],
      }),
      new iam.PolicyStatement({
        sid: 'ListExports',
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${prefix}*`] } },
      }),
      new iam.PolicyStatement({
        sid: 'LocateBucket',
        actions: ['s3:GetBucketLocation'],
        resources: [bucket.bucketArn],
      }),
      new iam.PolicyStatement({
        sid: 'ReadCatalog',
        actions: [
          'glue:GetDatabase',
          'glue:GetTable',
          'glue:GetTables',
          'glue:GetPartition',
          'glue:GetPartitions',
        ],
        resources: [
          stack.formatArn({ service: 'glue', resource: 'catalog' }),
          stack.formatArn({ service: 'glue', resource: 'database', resourceName: databaseName }),
          stack.formatArn({ service: 'glue', resource: 'table', resourceName: `${databaseName}/*` }),
        ],
      }),
    ];
    if (props.athenaWorkgroup !== false) {
      this.workgroup = new athena.CfnWorkGroup(this, 'Workgroup', {
        name: `${stack.stackName}-exports`,
        description: 'report-exporter: query the exported reports (results under athena-results/)',
        recursiveDeleteOption: true,
        workGroupConfiguration: {
          enforceWorkGroupConfiguration: true,
          publishCloudWatchMetricsEnabled: true,
          resultConfiguration: {
            outputLocation: `s3://${bucket.bucketName}/${ATHENA_RESULTS_PREFIX}`,
            encryptionConfiguration: props.bucketKeyArn
              ? { encryptionOption: 'SSE_KMS', kmsKey: props.bucketKeyArn }
              : { encryptionOption: 'SSE_S3' },
          },
        },
      });
      const workgroupArn = stack.formatArn({
        service: 'athena',
        resource: 'workgroup',
        resourceName: this.workgroup.name,
      });
      statements.push(
        new iam.PolicyStatement({
          sid: 'QueryInWorkgroup',
          actions: [
            'athena:StartQueryExecution',
            'athena:StopQueryExecution',
            'athena:GetQueryExecution',
            'athena:GetQueryResults',
            'athena:GetWorkGroup',
          ],
          resources: [workgroupArn],
        }),
        new iam.PolicyStatement({
          sid: 'QueryResults',
          actions: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload'],
          resources: [`${bucket.bucketArn}/${ATHENA_RESULTS_PREFIX}*`],
        }),
        new iam.PolicyStatement({
          sid: 'ListQueryResults',
          actions: ['s3:ListBucket'],
          resources: [bucket.bucketArn],
          conditions: { StringLike: { 's3:prefix': [`${ATHENA_RESULTS_PREFIX}*`] } },
        }),
      );
    }
    if (props.bucketKeyArn) {
      // Reading exports needs Decrypt; Athena writing encrypted results needs GenerateDataKey too.
      const actions = props.athenaWorkgroup !== false ? BUCKET_WRITE_KEY_ACTIONS : (['kms:Decrypt'] as const);
      statements.push(kmsViaService(stack, props.bucketKeyArn, 's3', actions));
    }
    this.policy = new iam.ManagedPolicy(this, 'ReadPolicy', {
      description: `report-exporter (${stack.stackName}): read the exports and query them with Athena`,
      statements,
    });
    const v = Validations.of(this.policy);
    for (const p of [prefix, ATHENA_RESULTS_PREFIX]) {
      v.acknowledge({
        id: `AwsSolutions-IAM5[Resource::${nagBucketArn(bucket)}/${p}*]`,
        reason: `Consumers read every object under "${p}" of the one bucket (keys are computed per run)`,
      });
    }
    const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
    const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
    v.acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:glue:${region}:${account}:table/${databaseName}/*]`,
      reason: 'Consumers read every table of the one database this stack creates (one per report and format)',
    });
  }
}
