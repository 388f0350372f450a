/**
 * Builds the CDK app for a validated config: the stack, and cdk-nag's AwsSolutions pack through the
 * CDK `Validations` API, so an unacknowledged finding fails synthesis. Shared by `infra/app.ts` and
 * the infra tests.
 */
import { readFileSync } from 'node:fs';
import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Config } from '#core/config/schema';
import { assertWithinLimits } from '#core/synth';
import { ExporterStack } from './stacks/exporter-stack';

export interface BuildAppOptions {
  readonly config: Config;
  /** The config's file name, for messages. @default 'reports.yaml' */
  readonly source?: string;
  /** An app already created (e.g. to read `-c config=` first). @default new App(appProps) */
  readonly app?: App;
  readonly appProps?: AppProps;
  /** @default true */
  readonly nag?: boolean;
}

/**
 * The feature flags of cdk.json (every flag whose default is not the recommended value is set there,
 * so `cdk synth` has nothing to warn about): an App made here (the tests') gets them too, so the
 * template the tests check is the one `cdk synth` writes.
 */
function cdkJsonFlags(): Record<string, unknown> {
  const json = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return Object.fromEntries(Object.entries(json.context ?? {}).filter(([key]) => key.startsWith('@aws-cdk')));
}

/** Context keys read here (all optional): stackName, sesIdentity, sesSandbox, mapConcurrency, glueDatabase, bucketName. */
export function buildApp(options: BuildAppOptions): { app: App; stack: ExporterStack } {
  // a config whose runs could not pass their state between steps is refused before synthesis
  assertWithinLimits(options.config, options.source, { stack: true });
  const app =
    options.app ??
    new App({ ...options.appProps, context: { ...cdkJsonFlags(), ...options.appProps?.context } });
  // Server access logs delivered under a bucket policy (not the legacy log-delivery ACL).
  app.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
  const ctx = (key: string): string | undefined => {
    const v: unknown = app.node.tryGetContext(key);
    return v === undefined || v === null || v === '' ? undefined : String(v);
  };
  const mapConcurrency = ctx('mapConcurrency');
  const sesIdentity = ctx('sesIdentity');
  const sesSandbox = ctx('sesSandbox') === 'true';
  const glueDatabaseName = ctx('glueDatabase');
  const existingBucketName = ctx('bucketName');
  const stack = new ExporterStack(app, ctx('stackName') ?? 'ReportExporter', {
    config: options.config,
    description:
      'report-exporter: scheduled Reporting API v2 exports to S3 (CSV, Parquet) with a summary email',
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    ...(mapConcurrency ? { mapConcurrency: Number(mapConcurrency) } : {}),
    ...(sesIdentity ? { sesIdentity } : {}),
    ...(sesSandbox ? { sesSandbox } : {}),
    ...(glueDatabaseName ? { glueDatabaseName } : {}),
    ...(existingBucketName ? { existingBucketName } : {}),
  });
  if (options.nag !== false) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
