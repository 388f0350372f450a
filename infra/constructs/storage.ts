/**
 * The exports bucket: private, encrypted, TLS-only, incomplete multipart uploads aborted after a day,
 * server access logs into a second bucket. Or, when the config names one (`output.bucketName`), an
 * existing bucket, which this app then neither creates nor changes.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface ExportStorageProps {
  /** An existing bucket to write into. @default a new bucket */
  readonly existingBucketName?: string;
  /** @default RemovalPolicy.RETAIN (exports outlive the stack) */
  readonly removalPolicy?: RemovalPolicy;
}

export class ExportStorage extends Construct {
  readonly bucket: s3.IBucket;
  /** The access-log bucket, when this construct created the exports bucket. */
  readonly accessLogs?: s3.Bucket;

  constructor(scope: Construct, id: string, props: ExportStorageProps = {}) {
    super(scope, id);
    if (props.existingBucketName) {
      this.bucket = s3.Bucket.fromBucketName(this, 'Existing', props.existingBucketName);
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
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: false,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'exports-bucket/',
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      removalPolicy,
    });
  }
}
