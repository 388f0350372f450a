/**
 * The API client's credentials: a reference to the Secrets Manager secret the config names
 * (`api.credentialsSecret`, a name or an ARN). The app never creates the secret and never sees its
 * value; the operator creates it once (docs/deploy.md). Only its name/ARN reaches the template.
 */
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';

export function referenceSecret(scope: Construct, id: string, nameOrArn: string): secretsmanager.ISecret {
  if (nameOrArn.startsWith('arn:')) {
    // A full ARN ends in the 6-character suffix Secrets Manager appends; a partial one does not.
    return /-[A-Za-z0-9]{6}$/.test(nameOrArn)
      ? secretsmanager.Secret.fromSecretCompleteArn(scope, id, nameOrArn)
      : secretsmanager.Secret.fromSecretPartialArn(scope, id, nameOrArn);
  }
  // By name: the grant covers `name-??????`, exactly the one secret of that name.
  return secretsmanager.Secret.fromSecretNameV2(scope, id, nameOrArn);
}
