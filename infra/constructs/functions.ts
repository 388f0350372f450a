/**
 * The three Lambdas of a run — Plan, Export, Finalize — and least privilege beside them: Export reads
 * the one secret and reads/writes/deletes/lists under the export prefix only (reading: the report's
 * stored column model); Finalize reads and writes under the prefix (previous manifest, column models,
 * CSV attachments, the manifest), creates and extends the tables of the one Glue database, sends as the
 * one SES identity, reads the SSM parameters the config names as recipient lists, and puts events on
 * the one bus. Plan writes the run's task list and reads the one secret (GetSecretValue only) for the
 * run's credentials preflight (one token request per run, `#core/run/credentials-check`).
 */
import { Arn, Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { workflowPrefix } from '#core/synth';
import { ExporterFunction } from './exporter-function';
import { BUCKET_WRITE_KEY_ACTIONS, kmsViaService, SECRET_KEY_ACTIONS } from './kms-grants';
import { nagBucketArn } from './storage';

export interface ExportFunctionsProps {
  /** The validated config as a JSON file, bundled with each function. */
  readonly configFile: string;
  readonly bucket: s3.IBucket;
  /** `output.prefix` of the config ('' or ending in '/'). */
  readonly prefix: string;
  readonly secret: secretsmanager.ISecret;
  /** The SES identity the summary is sent as (address or domain); none = no email permission. */
  readonly sesIdentity?: string;
  /** SSM parameters (`/a/b`) holding recipient lists, read by Finalize at send time. @default none */
  readonly recipientParameters?: readonly string[];
  /**
   * In the SES sandbox, SES also authorizes a send against each recipient's verified identity: these
   * identities (addresses or domains) are added to the send grant. @default none (production access)
   */
  readonly sesRecipientIdentities?: readonly string[];
  /** @default 'default' */
  readonly eventBusName?: string;
  /** The Map's maxConcurrency: Export Lambdas split `api.concurrency` between them. */
  readonly mapConcurrency: number;
  /** The Glue database whose tables Finalize creates and keeps equal to the column models. */
  readonly glueDatabaseName: string;
  /** ARN of the customer-managed key encrypting the secret (Plan and Export may decrypt through Secrets Manager). */
  readonly secretKeyArn?: string;
  /** ARN of the bucket's SSE-KMS key (Export and Finalize may use it through S3). */
  readonly bucketKeyArn?: string;
  /** Place the Plan and Export Lambdas (the ones calling the API) in these private subnets. */
  readonly exportVpc?: ExportVpcPlacement;
}

export interface ExportVpcPlacement {
  readonly vpc: ec2.IVpc;
  readonly subnets: readonly ec2.ISubnet[];
  /** @default a new security group: all outbound, no inbound */
  readonly securityGroups?: readonly ec2.ISecurityGroup[];
}

export class ExportFunctions extends Construct {
  readonly plan: lambda.IFunction;
  readonly export: lambda.IFunction;
  readonly finalize: lambda.IFunction;

  constructor(scope: Construct, id: string, props: ExportFunctionsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const bucketName = props.bucket.bucketName;
    const eventBusName = props.eventBusName ?? 'default';
    const common = { configFile: props.configFile };

    const plan = new ExporterFunction(this, 'Plan', {
      ...common,
      handler: 'plan',
      description: 'report-exporter: plan a run (window + report tasks)',
      environment: { BUCKET_NAME: bucketName },
      // its token request leaves by the same network path as Export's (the provider's allowlist)
      ...(props.exportVpc ? { vpc: props.exportVpc } : {}),
    });
    const exporter = new ExporterFunction(this, 'Export', {
      ...common,
      handler: 'export',
      description: 'report-exporter: export one report (continues from a checkpoint)',
      timeout: Duration.minutes(15),
      memorySize: 1024,
      environment: { BUCKET_NAME: bucketName, MAP_CONCURRENCY: String(props.mapConcurrency) },
      ...(props.exportVpc ? { vpc: props.exportVpc } : {}),
    });
    const finalize = new ExporterFunction(this, 'Finalize', {
      ...common,
      handler: 'finalize',
      description: 'report-exporter: manifest, summary email, completion event',
      timeout: Duration.minutes(5),
      memorySize: 512,
      environment: {
        BUCKET_NAME: bucketName,
        EVENT_BUS_NAME: eventBusName,
        GLUE_DATABASE: props.glueDatabaseName,
      },
      ...((props.recipientParameters ?? []).length === 0 ? { defines: SSM_RECIPIENTS_DEFINE } : {}),
    });

    const objects = `${props.bucket.bucketArn}/${props.prefix}*`;
    const list = new iam.PolicyStatement({
      actions: ['s3:ListBucket'],
      resources: [props.bucket.bucketArn],
      conditions: { StringLike: { 's3:prefix': [`${props.prefix}*`] } },
    });
    props.secret.grantRead(exporter.role);
    // the credentials preflight reads the secret's value and nothing else of it (the ARN CDK's
    // grantRead uses: the full ARN, or `NAME-??????` for a secret referenced by name or partial ARN)
    plan.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [props.secret.secretFullArn ?? `${props.secret.secretArn}-??????`],
      }),
    );
    exporter.role.addToPolicy(
      new iam.PolicyStatement({
        // GetObject: the window's lease and manifest (compare-and-swap), the staged parts' copy source,
        // and the report's stored column model.
        actions: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
        resources: [objects],
      }),
    );
    exporter.role.addToPolicy(list);
    finalize.role.addToPolicy(
      // DeleteObject: releasing the window's lease, removing the window's staging folder, and removing
      // the run's task list and the Map's result files under the prefix's `_workflow/` once the
      // manifest is written (one statement: a second one for `_workflow/` would only repeat it).
      new iam.PolicyStatement({
        actions: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'],
        resources: [objects],
      }),
    );
    finalize.role.addToPolicy(list);
    // The run's task list: Plan writes it, the Distributed Map reads it, Finalize removes it.
    plan.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:PutObject'],
        resources: [`${props.bucket.bucketArn}/${workflowPrefix(props.prefix)}tasks/*`],
      }),
    );
    Validations.of(plan.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagBucketArn(props.bucket)}/${workflowPrefix(props.prefix)}tasks/*]`,
      reason: `One task-list object per run, named by the run id (generated per run); limited to "${workflowPrefix(props.prefix)}tasks/" of the one bucket`,
    });
    if (props.secretKeyArn) {
      for (const fn of [plan, exporter]) {
        fn.role.addToPolicy(kmsViaService(stack, props.secretKeyArn, 'secretsmanager', SECRET_KEY_ACTIONS));
      }
    }
    if (props.bucketKeyArn) {
      for (const fn of [plan, exporter, finalize]) {
        fn.role.addToPolicy(kmsViaService(stack, props.bucketKeyArn, 's3', BUCKET_WRITE_KEY_ACTIONS));
      }
    }
    if (props.sesIdentity) {
      finalize.role.addToPolicy(
        new iam.PolicyStatement({
          actions: ['ses:SendEmail', 'ses:SendRawEmail'],
          resources: [props.sesIdentity, ...(props.sesRecipientIdentities ?? [])].map((identity) =>
            stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity }),
          ),
        }),
      );
    }
    const parameters = parameterGrants(props.recipientParameters ?? []);
    if (parameters.length > 0) {
      // The parameters the config names (String/StringList: no KMS), read-only: each by name, or — past
      // MAX_PARAMETER_ARNS, whose ARNs would not fit a role's policies — each top-level path of them.
      finalize.role.addToPolicy(
        new iam.PolicyStatement({
          actions: ['ssm:GetParameter'],
          resources: parameters.map((name) =>
            stack.formatArn({ service: 'ssm', resource: 'parameter', resourceName: name }),
          ),
        }),
      );
      for (const name of parameters.filter((n) => n.endsWith('/*'))) {
        Validations.of(finalize.role).acknowledge({
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ssm:${literal(stack.region, 'AWS::Region')}:${literal(stack.account, 'AWS::AccountId')}:parameter/${name}]`,
          reason: `The config names more than ${MAX_PARAMETER_ARNS} SSM recipient lists: read-only on the parameters under "/${name.slice(0, -2)}/", the top-level path the config's lists are under (that many ARNs would not fit the role's policies)`,
        });
      }
    }
    finalize.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['events:PutEvents'],
        resources: [
          Arn.format({ service: 'events', resource: 'event-bus', resourceName: eventBusName }, stack),
        ],
      }),
    );
    // the tables of the one database: read a table, create it when absent, set its columns (never
    // delete one). Every table of the database, not each by name: the tables follow the config's
    // reports, and 5,000 table ARNs would not fit a role's policy (10,240 characters).
    const tables = stack.formatArn({
      service: 'glue',
      resource: 'table',
      resourceName: `${props.glueDatabaseName}/*`,
    });
    finalize.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['glue:GetTable', 'glue:CreateTable', 'glue:UpdateTable'],
        resources: [
          stack.formatArn({ service: 'glue', resource: 'catalog' }),
          stack.formatArn({ service: 'glue', resource: 'database', resourceName: props.glueDatabaseName }),
          tables,
        ],
      }),
    );
    Validations.of(finalize.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:glue:${literal(stack.region, 'AWS::Region')}:${literal(stack.account, 'AWS::AccountId')}:table/${props.glueDatabaseName}/*]`,
      reason: `Finalize creates and extends one table per report and format of the config (their names follow the config's reports); limited to the tables of the one database "${props.glueDatabaseName}", and it can delete none`,
    });
    for (const fn of [exporter, finalize]) {
      Validations.of(fn.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${nagBucketArn(props.bucket)}/${props.prefix}*]`,
        reason: `Object keys are computed per run (schedule/report/format/dt=window end/part-N); the grant is limited to the export prefix "${props.prefix}" of the one bucket`,
      });
    }
    this.plan = plan.function;
    this.export = exporter.function;
    this.finalize = finalize.function;
  }
}

/** Recipient-list parameters granted each by ARN; more are granted by their top-level path. */
export const MAX_PARAMETER_ARNS = 20;

/**
 * The Finalize bundle's `define` for a config that names no `ssm:` recipient list: the handler then
 * never creates the SSM reader, and esbuild leaves the SSM client out of the bundle
 * (functions/handlers/finalize.ts; docs/performance.md, "Lambda: cold init").
 */
export const SSM_RECIPIENTS_DEFINE = { 'process.env.REPORT_EXPORTER_SSM_RECIPIENTS': '"none"' } as const;

/**
 * The parameter names (without the leading `/`) Finalize may read: the config's names, or past
 * `MAX_PARAMETER_ARNS` one `top/*` per top-level path (a name without a path stays by name).
 */
export function parameterGrants(names: readonly string[]): string[] {
  const bare = [...new Set(names.map((n) => n.replace(/^\//, '')))];
  if (bare.length <= MAX_PARAMETER_ARNS) return bare;
  return [...new Set(bare.map((n) => (n.includes('/') ? `${n.slice(0, n.indexOf('/'))}/*` : n)))];
}

/** A stack's region or account as cdk-nag writes it in a finding: the value, or its pseudo parameter. */
function literal(value: string, pseudo: string): string {
  return Token.isUnresolved(value) ? `<${pseudo}>` : value;
}
