/**
 * Customer-managed KMS keys the roles need: the key of the credentials secret (`kms:Decrypt`, only
 * through Secrets Manager) and the SSE-KMS key of the exports bucket (`kms:GenerateDataKey` to write,
 * `kms:Decrypt` to read and to complete multipart uploads, only through S3). The `kms:ViaService`
 * condition keeps a leaked role from using the key directly.
 */
import type { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';

/** A statement allowing `actions` on `keyArn` only when `service` (e.g. `s3`) calls KMS for the role. */
export function kmsViaService(
  scope: Stack,
  keyArn: string,
  service: 'secretsmanager' | 's3',
  actions: readonly string[],
): iam.PolicyStatement {
  return new iam.PolicyStatement({
    actions: [...actions],
    resources: [keyArn],
    conditions: { StringEquals: { 'kms:ViaService': `${service}.${scope.region}.amazonaws.com` } },
  });
}

/** The secret's key: Secrets Manager decrypts the secret value with it on GetSecretValue. */
export const SECRET_KEY_ACTIONS = ['kms:Decrypt'] as const;
/** The bucket's key: writing (single and multipart) and reading SSE-KMS objects; reading alone needs Decrypt. */
export const BUCKET_WRITE_KEY_ACTIONS = ['kms:GenerateDataKey', 'kms:Decrypt'] as const;
