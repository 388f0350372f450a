/**
 * The function defaults in one place: NodejsFunction bundled by the local esbuild (never Docker),
 * Node 22 on arm64, ESM, minified with source maps, an explicit log group with retention, and an own
 * role whose only built-in permission is writing to that log group (no AWSLambdaBasicExecutionRole).
 */
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { BUNDLED_CONFIG_FILE } from '#core/synth';
// the same list the CLI's build aliases (scripts/build-cli.mjs)
import builtinShims from './builtin-shims.json' with { type: 'json' };

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Modules left out of the bundles: none. The Node 22 runtime ships the AWS SDK v3, but loading its
 * unbundled files is what a cold start pays most for (measured in bench/RESULTS.md: the Export bundle
 * initialises in ~100 ms with the SDK bundled and minified, ~300 ms with the runtime's), and bundling
 * runs the code on the SDK versions it was tested with.
 */
export const RUNTIME_PROVIDED: string[] = [];

/**
 * Import conditions of the bundles: `lambda` resolves `#http` to the adapter on Node's built-in fetch
 * (no undici package in the bundle); `module` keeps esbuild's default ESM-first resolution.
 */
export const BUNDLE_CONDITIONS = 'lambda,module';

/**
 * Node's HTTP modules reach the bundles as CommonJS, not as ES imports. Imported as ES modules
 * (`@smithy/node-http-handler` does), Node 22 builds each one's module facade by reading every export,
 * including `node:http`'s lazy `WebSocket` getters, which load and run Node's bundled undici during
 * init (a CPU profile of the Finalize import: 9–16 ms in undici alone; bench/RESULTS.md times the same
 * bundles without the shims). Finalize never uses undici; Export and Plan load it at their first API
 * request, through `fetch`, rather than at every cold start. Each shim is one
 * `process.getBuiltinModule` call, which leaves the getters lazy. The list
 * (./builtin-shims.json) is the CLI's bundle's too (scripts/build-cli.mjs).
 */
export const BUILTIN_SHIMS = Object.entries(builtinShims).map(([name, path]) => `${name}=${path}`);

/**
 * Packages the Lambda bundles take from `functions/handlers/builtins/` instead: code a Lambda never
 * runs, compiled at every cold start all the same (each file says what it stands in for and why).
 * The credential chain's shared-config, SSO, process and web-identity links, with the STS, SSO and
 * sign-in clients they bring (~85 KiB of each minified bundle), and semver (~29 KiB), of which the
 * X-Ray SDK and cls-hooked call only `gte`. Cold init, interleaved on Node 22: docs/performance.md.
 */
export const PACKAGE_SHIMS = [
  '@aws-sdk/credential-provider-ini=./functions/handlers/builtins/credential-providers.cjs',
  '@aws-sdk/credential-provider-sso=./functions/handlers/builtins/credential-providers.cjs',
  '@aws-sdk/credential-provider-process=./functions/handlers/builtins/credential-providers.cjs',
  '@aws-sdk/credential-provider-web-identity=./functions/handlers/builtins/credential-providers.cjs',
  'semver=./functions/handlers/builtins/semver.cjs',
];

export interface ExporterFunctionProps {
  /** Handler file under `functions/handlers/` (without extension), e.g. `export`. */
  readonly handler: string;
  readonly description: string;
  /**
   * The validated config as a JSON file, copied into the bundle as `BUNDLED_CONFIG_FILE` (it names the
   * secret, never holds its value). Part of the bundle's hash: a changed config redeploys the function.
   */
  readonly configFile: string;
  /** @default Duration.seconds(30) */
  readonly timeout?: Duration;
  /** @default 256 */
  readonly memorySize?: number;
  readonly environment?: Readonly<Record<string, string>>;
  /** esbuild `define`s of the bundle (expressions replaced at bundling, then folded). @default none */
  readonly defines?: Readonly<Record<string, string>>;
  /** @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
  /** Run in these subnets of a VPC (egress through their NAT). @default no VPC */
  readonly vpc?: {
    readonly vpc: ec2.IVpc;
    readonly subnets: readonly ec2.ISubnet[];
    readonly securityGroups?: readonly ec2.ISecurityGroup[];
  };
}

export class ExporterFunction extends Construct {
  readonly function: nodejs.NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ExporterFunctionProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.description} (log group write only, plus its grants)`,
    });
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [this.logGroup.logGroupArn],
      }),
    );
    this.function = new nodejs.NodejsFunction(this, 'Function', {
      entry: `${PROJECT_ROOT}functions/handlers/${props.handler}.ts`,
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: `${PROJECT_ROOT}package-lock.json`,
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout ?? Duration.seconds(30),
      role: this.role,
      logGroup: this.logGroup,
      ...(props.vpc
        ? {
            vpc: props.vpc.vpc,
            vpcSubnets: { subnets: [...props.vpc.subnets] },
            ...(props.vpc.securityGroups ? { securityGroups: [...props.vpc.securityGroups] } : {}),
          }
        : {}),
      loggingFormat: lambda.LoggingFormat.JSON,
      // X-Ray: the handlers trace with Powertools Tracer (functions/handlers/wiring.ts)
      tracing: lambda.Tracing.ACTIVE,
      environment: {
        POWERTOOLS_SERVICE_NAME: 'report-exporter',
        POWERTOOLS_METRICS_NAMESPACE: 'ReportExporter',
        POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
        ...props.environment,
      },
      bundling: {
        forceDockerBundling: false,
        format: nodejs.OutputFormat.ESM,
        target: 'node22',
        minify: true,
        ...(props.defines ? { define: { ...props.defines } } : {}),
        // read at the first stack trace (functions/handlers/stack-traces.ts), not at every cold start
        // as NODE_OPTIONS=--enable-source-maps would
        sourceMap: true,
        sourcesContent: false,
        mainFields: ['module', 'main'],
        externalModules: RUNTIME_PROVIDED,
        // aliases resolve from the working directory, which is PROJECT_ROOT
        esbuildArgs: {
          '--conditions': BUNDLE_CONDITIONS,
          '--alias': [...BUILTIN_SHIMS, ...PACKAGE_SHIMS],
        },
        // CommonJS dependencies (the AWS SDK's) call require() for built-ins; ESM output needs one.
        banner: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);",
        // A file beside the handler, not an esbuild `define`: the config of a large deployment
        // (hundreds of KB) does not fit on a command line.
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (_input: string, output: string) => [
            `cp ${shellQuote(props.configFile)} ${shellQuote(`${output}/${BUNDLED_CONFIG_FILE}`)}`,
          ],
        },
      },
    });
    if (props.vpc) this.allowVpcNetworking();
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray PutTraceSegments and PutTelemetryRecords (granted by Tracing.ACTIVE) have no resource-level permissions',
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 is the runtime the product is built and tested for; moving to 24 is a deliberate upgrade, not a drift to follow automatically',
    });
  }

  /**
   * What Lambda needs to attach the function to the subnets (the actions of the AWS managed
   * AWSLambdaVPCAccessExecutionRole, inline so the role stays free of managed policies).
   */
  private allowVpcNetworking(): void {
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: [
          'ec2:CreateNetworkInterface',
          'ec2:DescribeNetworkInterfaces',
          'ec2:DescribeSubnets',
          'ec2:DeleteNetworkInterface',
          'ec2:AssignPrivateIpAddresses',
          'ec2:UnassignPrivateIpAddresses',
        ],
        resources: ['*'],
      }),
    );
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'The ENI actions Lambda uses to place the function in its VPC subnets (those of AWSLambdaVPCAccessExecutionRole) do not support resource-level permissions for Describe*, and the ENI ids are not known in advance',
    });
  }
}

/** A path as one POSIX shell word. */
function shellQuote(path: string): string {
  return `'${path.replace(/'/g, "'\\''")}'`;
}
