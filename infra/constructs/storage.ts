/**
 * The exports bucket: private, encrypted (S3-managed, or SSE-KMS under the config's key), TLS-only,
 * incomplete multipart uploads aborted after a day, optional retention of the exports (expiry,
 * transition to a cheaper class), server access logs into a second bucket, an explicit removal
 * policy. Or, when the config names one (`output.bucketName`), an existing bucket, which this app then
 * neither creates nor changes (its lifecycle is its owner's).
 */
import { Annotations, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { DeployConfig } from '#core/config/schema';

export interface ExportStorageProps {
  /** An existing bucket to write into. @default a new bucket */
  readonly existingBucketName?: string;
  /** @default RemovalPolicy.RETAIN (exports outlive the stack) */
  readonly removalPolicy?: RemovalPolicy;
  /** SSE-KMS key of a new bucket (an existing bucket's own key is only granted, not set). */
  readonly encryptionKey?: kms.IKey;
  /** Lifecycle of the objects under `prefix` (new bucket only). */
  readonly retention?: DeployConfig['retention'];
  /** The export prefix the retention applies to. @default '' */
  readonly prefix?: string;
}

/** Where the Athena workgroup writes query results (expired after 30 days in a new bucket). */
export const ATHENA_RESULTS_PREFIX = 'athena-results/';

export class ExportStorage extends Construct {
  readonly bucket: s3.IBucket;
  /** The access-log bucket, when this construct created the exports bucket. */
  readonly accessLogs?: s3.Bucket;

  constructor(scope: Construct, id: string, props: ExportStorageProps = {}) {
    super(scope, id);
    if (props.existingBucketName) {
      this.bucket = s3.Bucket.fromBucketName(this, 'Existing', props.existingBucketName);
      if (props.retention) {
        Annotations.of(this).addError(
          'deploy.retention applies only to a bucket this stack creates; set lifecycle rules on the existing bucket (output.bucketName) yourself',
        );
      }
      return;
    }
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(365) }],
      removalPolicy,
    });
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This is the server-access-log bucket of the exports bucket; logging its own access would log into itself or need a third bucket without end',
    });
    this.accessLogs = accessLogs;
    this.bucket = new s3.Bucket(this, 'Exports', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      ...(props.encryptionKey
        ? { encryption: s3.BucketEncryption.KMS, encryptionKey: props.encryptionKey, bucketKeyEnabled: true }
        : { encryption: s3.BucketEncryption.S3_MANAGED }),
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: false,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'exports-bucket/',
      lifecycleRules: [
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        { id: 'athena-results', prefix: ATHENA_RESULTS_PREFIX, expiration: Duration.days(30) },
        ...retentionRules(props.retention, props.prefix ?? ''),
      ],
      removalPolicy,
    });
  }
}

/** The exports' lifecycle rule from `deploy.retention` (none when neither day count is set). */
function retentionRules(retention: DeployConfig['retention'], prefix: string): s3.LifecycleRule[] {
  if (
    !retention ||
    (retention.expireAfterDays === undefined && retention.transitionAfterDays === undefined)
  ) {
    return [];
  }
  return [
    {
      id: 'export-retention',
      ...(prefix ? { prefix } : {}),
      ...(retention.expireAfterDays !== undefined
        ? { expiration: Duration.days(retention.expireAfterDays) }
        : {}),
      ...(retention.transitionAfterDays !== undefined
        ? {
            transitions: [
              {
                storageClass: new s3.StorageClass(retention.storageClass),
                transitionAfter: Duration.days(retention.transitionAfterDays),
              },
            ],
          }
        : {}),
    },
  ];
}

/** The bucket ARN as cdk-nag writes it: `<StorageExports1234.Arn>`, or an imported bucket's literal ARN. */
export function nagBucketArn(bucket: s3.IBucket): string {
  const child = bucket.node.defaultChild as { logicalId?: string } | undefined;
  if (child?.logicalId) return `<${Stack.of(bucket).resolve(child.logicalId)}.Arn>`;
  return `arn:<AWS::Partition>:s3:::${bucket.bucketName}`;
}
