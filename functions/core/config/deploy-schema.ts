/**
 * The config's `deploy` section: options only `cdk deploy` reads (the CLI ignores them). Each one is a
 * production need of a platform account: customer-managed KMS keys, tags on every resource, export
 * retention, the bucket's removal policy, a VPC for the Lambdas that call the API (fixed egress IP through a NAT),
 * an Athena workgroup for consumers. Documented in docs/config.md and docs/deploy.md.
 */
import { z } from 'zod';

const KMS_KEY_ARN = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:(key|alias)\/[A-Za-z0-9/_-]+$/;

const kmsKeyArn = (what: string) =>
  z.string().regex(KMS_KEY_ARN, {
    error: `${what} must be a KMS key ARN such as arn:aws:kms:eu-central-1:123456789012:key/1234abcd-…`,
  });

/** Tag keys and values as AWS accepts them everywhere (the strictest common rule). */
const TAG_TEXT = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$/u;
const tagsSchema = z
  .record(z.string(), z.string())
  .superRefine((tags, ctx) => {
    const entries = Object.entries(tags);
    if (entries.length > 40) {
      ctx.addIssue({ code: 'custom', message: 'at most 40 tags (CDK adds a few of its own)' });
    }
    for (const [key, value] of entries) {
      const problem =
        key.length < 1 || key.length > 128
          ? 'tag keys are 1–128 characters'
          : key.toLowerCase().startsWith('aws:')
            ? `tag key "${key}" may not start with "aws:" (reserved by AWS)`
            : !TAG_TEXT.test(key) || !TAG_TEXT.test(value)
              ? 'tags may use letters, digits, spaces and _ . : / = + - @'
              : value.length > 256
                ? 'tag values are at most 256 characters'
                : undefined;
      if (problem) ctx.addIssue({ code: 'custom', path: [key], message: problem });
    }
  })
  .default({});

export const STORAGE_CLASSES = ['STANDARD_IA', 'ONEZONE_IA', 'INTELLIGENT_TIERING', 'GLACIER_IR'] as const;

const retentionSchema = z
  .strictObject({
    /** Exports (and manifests) are deleted this many days after they were written. */
    expireAfterDays: z.int().min(1).max(36_500).optional(),
    /** Moved to `storageClass` this many days after they were written. */
    transitionAfterDays: z.int().min(30).max(36_500).optional(),
    storageClass: z.enum(STORAGE_CLASSES).default('STANDARD_IA'),
  })
  .refine(
    (r) =>
      r.expireAfterDays === undefined ||
      r.transitionAfterDays === undefined ||
      r.transitionAfterDays < r.expireAfterDays,
    { error: 'transitionAfterDays must be less than expireAfterDays' },
  );

const vpcSchema = z.strictObject({
  vpcId: z.string().regex(/^vpc-[0-9a-f]{8,17}$/, { error: 'vpcId must look like vpc-0123456789abcdef0' }),
  /** Private subnets whose route table sends 0.0.0.0/0 to a NAT gateway (its Elastic IP is the egress IP). */
  subnetIds: z
    .array(z.string().regex(/^subnet-[0-9a-f]{8,17}$/, { error: 'subnet ids look like subnet-0123…' }))
    .min(1, { error: 'subnetIds needs at least one private subnet (two in different AZs is better)' }),
  /** @default a new security group allowing all outbound traffic and no inbound */
  securityGroupIds: z
    .array(z.string().regex(/^sg-[0-9a-f]{8,17}$/, { error: 'security group ids look like sg-0123…' }))
    .optional(),
});

export const deploySchema = z
  .strictObject({
    tags: tagsSchema.describe('applied to every resource of the stack that takes tags'),
    /** The customer-managed key that encrypts `api.credentialsSecret` (not the AWS-managed one). */
    secretKmsKeyArn: kmsKeyArn('secretKmsKeyArn').optional(),
    /** SSE-KMS key of the exports bucket: the new bucket is encrypted with it, or the existing one uses it. */
    bucketKmsKeyArn: kmsKeyArn('bucketKmsKeyArn').optional(),
    retention: retentionSchema.optional(),
    /** What `cdk destroy` does with a bucket this stack created. */
    removalPolicy: z.enum(['retain', 'destroy']).default('retain'),
    vpc: vpcSchema.optional(),
    /** Create an Athena workgroup for consumers (query results under `athena-results/`). */
    athenaWorkgroup: z.boolean().default(true),
  })
  .default({ tags: {}, removalPolicy: 'retain', athenaWorkgroup: true })
  .describe('Deploy only: production options of the AWS deployment (ignored by the CLI)');

export type DeployConfig = z.infer<typeof deploySchema>;
