/**
 * Deploy smoke test: `cdk bootstrap` and an unchanged `cdk deploy --method=direct` of the example
 * config into moto_server (started by moto_launcher.py), then every resource read back through its
 * service's own API and compared with the synthesized template, resolved against what was deployed.
 *
 * What it proves: the CLI's whole deploy path works with this app (asset build and publishing to the
 * bootstrap bucket, template upload, stack creation in dependency order, every Ref/GetAtt resolvable);
 * what was created is what the template says — schedules (cron, timezone, state, input, retry, DLQ),
 * the state machine's definition and the three function ARNs it calls, Lambda runtime / handler /
 * memory / timeout / role / environment, every role's trust and inline policy, the consumers' managed
 * policy, the Glue database (its tables are the workflow's), the alarms, the bucket/queue/topic policies, the Athena
 * workgroup, the stack outputs; and the emulator logged no traceback (moto can report CREATE_COMPLETE
 * after an internal error). The comparison is driven by the template, so a resource added or changed
 * later is compared too (a type with no comparer below is checked to exist).
 *
 * What it cannot prove: CloudFormation's own property validation (moto accepts what AWS would
 * reject), IAM policy grammar beyond JSON, arm64 (moto reports x86_64), the Lambdas' logging format and
 * the state machine's logging/X-Ray settings (dropped by moto), log group retention, KMS key policies
 * and rotation, bucket encryption/lifecycle/access logging and S3 Bucket Keys (not compared: moto's
 * bucket model keeps only part of them), that the Lambdas run (moto does not run Node code here; the
 * handler end-to-end test and the least-privilege test do), and anything about real service limits.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  CloudFormationClient,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import { IAMClient } from '@aws-sdk/client-iam';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { CreateEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '#core/config/schema';
import { type Simulator, startSimulator } from '#simulator/server';
import { exampleConfig } from '../e2e/helpers';
import { hasMoto, needMoto } from '../support/servers';
import { ACCOUNT, cdkAgainst, type Emulator, REGION, ROOT, startEmulator, tracebacks } from './emulator';
import { type CfnTemplate, Resolver } from './intrinsics';
import {
  createUser,
  enforceIam,
  type Keys,
  type PolicyDocument,
  putUserPolicies,
  removableStatements,
  rolePolicies,
  runPhase,
  without,
} from './privilege';
import { type Check, clients, comparers, lambdaArnsIn } from './readback';

const STACK = 'ReportExporter';
/** Types checked only for existence: moto keeps too little of them to compare (see the header). */
const EXISTENCE_ONLY = new Set([
  'AWS::CDK::Metadata',
  'AWS::Logs::LogGroup',
  'AWS::KMS::Key',
  'AWS::S3::Bucket',
  'AWS::SNS::Topic',
  'AWS::CloudWatch::Dashboard',
]);

let moto: Emulator;
let template: CfnTemplate;
let physical: Record<string, string> = {};
let statuses: Record<string, string> = {};
let outputs: Record<string, string> = {};
const checks: Check[] = [];
let notCompared: string[] = [];
let seconds = {};
const outdir = join(ROOT, 'cdk.out', `deploy-${process.pid}`);
const scratch = mkdtempSync(join(tmpdir(), 'cdk-bootstrap-'));

/** Runs the `cdk` CLI against the emulator; resolves with the seconds taken, rejects on failure. */
const cdk = (args: string[], cwd: string) => cdkAgainst(moto, args, cwd);

beforeAll(async () => {
  if (!hasMoto) return;
  moto = await startEmulator({ iamFixes: true });
  // Bootstrap (from an empty folder: inside the app's folder it would synthesize the app first)
  // while the app synthesizes; then deploy that cloud assembly, as `cdk deploy` would after its synth.
  const [tBoot, tSynth] = await Promise.all([
    cdk(['bootstrap', `aws://${ACCOUNT}/${REGION}`], scratch),
    cdk(['synth', STACK, '-q', '-c', 'config=reports.yaml', '-o', outdir], ROOT),
  ]);
  const tDeploy = await cdk(['deploy', STACK, '--app', outdir, '--method=direct'], ROOT);
  template = JSON.parse(readFileSync(join(outdir, `${STACK}.template.json`), 'utf8')) as CfnTemplate;

  const t = performance.now();
  const cfn = new CloudFormationClient(moto.clientConfig());
  const { StackResources = [] } = await cfn.send(new DescribeStackResourcesCommand({ StackName: STACK }));
  physical = Object.fromEntries(StackResources.map((r) => [r.LogicalResourceId, r.PhysicalResourceId]));
  statuses = Object.fromEntries(StackResources.map((r) => [r.LogicalResourceId, r.ResourceStatus]));
  const { Stacks = [] } = await cfn.send(new DescribeStacksCommand({ StackName: STACK }));
  outputs = Object.fromEntries((Stacks[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));

  const resolver = new Resolver(template, physical);
  const compare = comparers(clients(moto.clientConfig()));
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    const fn = compare[resource.Type];
    if (!fn) {
      notCompared.push(resource.Type);
      continue;
    }
    checks.push(...(await fn(resolver.physicalId(logicalId), resource.Properties ?? {}, resolver)));
  }
  notCompared = [...new Set(notCompared)].sort();
  seconds = {
    bootstrap: tBoot,
    synth: tSynth,
    deploy: tDeploy,
    readBack: Math.round((performance.now() - t) / 100) / 10,
  };
  process.stdout.write(`deploy smoke test timings (s): ${JSON.stringify(seconds)}\n`);
}, 420_000);

afterAll(async () => {
  await moto?.stop();
  rmSync(outdir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('cdk deploy of the example config into the emulator', () => {
  it('creates every resource of the template and logs no traceback', (ctx) => {
    needMoto(ctx);
    const missing = Object.keys(template.Resources).filter((id) => statuses[id] !== 'CREATE_COMPLETE');
    expect(missing).toEqual([]);
    expect(tracebacks(moto.log())).toEqual([]);
  });

  it('reads back every compared property as the template says', (ctx) => {
    needMoto(ctx);
    const types = new Set(Object.values(template.Resources).map((r) => r.Type));
    for (const t of [
      'AWS::Scheduler::Schedule',
      'AWS::Glue::Database',
      'AWS::CloudWatch::Alarm',
      'AWS::IAM::Policy',
    ]) {
      expect(types).toContain(t);
    }
    expect(checks.length).toBeGreaterThan(150);
    const wrong = checks.filter((c) => !isDeepStrictEqual(c.actual, c.expected));
    expect(wrong).toEqual([]);
    // A new resource type is at least checked to exist; name it here to say why it is not compared.
    expect(notCompared.filter((t) => !EXISTENCE_ONLY.has(t))).toEqual([]);
  });

  it('runs the three deployed functions from the workflow, and nothing else', (ctx) => {
    needMoto(ctx);
    const definitions = checks.filter((c) => /^State machine .* definition$/.test(c.what));
    // the workflow and the schedules' dispatcher (which calls no Lambda)
    expect(definitions).toHaveLength(2);
    const deployedFunctions = Object.entries(template.Resources)
      .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
      .map(([id]) => `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${physical[id]}`)
      .sort();
    expect(deployedFunctions).toHaveLength(3);
    expect(definitions.flatMap((d) => lambdaArnsIn(d.actual)).sort()).toEqual(deployedFunctions);
  });

  it('reports the template outputs with deployed values', (ctx) => {
    needMoto(ctx);
    const resolver = new Resolver(template, physical);
    const expected = Object.fromEntries(
      Object.entries(template.Outputs ?? {}).map(([k, o]) => [k, String(resolver.resolve(o.Value))]),
    );
    expect(Object.keys(expected)).toEqual(
      expect.arrayContaining(['BucketName', 'StateMachineArn', 'ConsumerPolicyArn']),
    );
    expect(outputs).toEqual(expected);
  });
});

/** The Lambdas whose share of a run is run under their deployed role's policies. */
type Phase = 'plan' | 'export' | 'finalize';

const DENIED = /AccessDenied|access denied|not authori[sz]ed|HTTP 403|"<\?xml vers/i;
/** The phase's failure line (role-run.ts prints `<phase> failed: …`), without runtime warnings. */
const failure = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => / failed: /.test(l))
    .join('\n');

/** The Lambda of a description (Export, Finalize) → its deployed role's name. */
function roleOf(description: string): string {
  const fn = Object.values(template.Resources).find(
    (r) => r.Type === 'AWS::Lambda::Function' && String(r.Properties?.Description).includes(description),
  );
  const role = new Resolver(template, physical).resolve(fn?.Properties?.Role);
  return String(role).split('/').pop() ?? '';
}

describe("least privilege: each Lambda's path under its deployed role's own policy, IAM enforced", () => {
  let sim: Simulator;
  let config: Config;
  let iam: IAMClient;
  const keys: Record<Phase, Keys> = {} as never;
  const policies: Record<Phase, Record<string, PolicyDocument>> = {} as never;
  const users = { plan: 'lp-plan', export: 'lp-export', finalize: 'lp-finalize' } as const;
  const work = mkdtempSync(join(tmpdir(), 'least-privilege-'));
  const exported = join(work, 'exported.json');
  let env: Record<string, string>;
  let admin: IAMClient;
  let bucket = '';

  let adminS3: S3Client;

  /**
   * One phase under one role. An export phase run alone takes the window's lease and no Finalize
   * releases it, so the next export would meet `WindowBusy` instead of the refusal under test: the
   * leases are cleared (as the admin) before each export phase.
   */
  const run = async (who: Phase) => {
    if (who === 'export') await clearLeases();
    const args = {
      plan: ['plan'],
      export: ['export', exported],
      finalize: ['finalize', exported, join(work, 'final.json')],
    };
    return runPhase(moto, keys[who], config, env, args[who]);
  };

  const clearLeases = async () => {
    const listed = await adminS3.send(new ListObjectsV2Command({ Bucket: bucket }));
    const leases = (listed.Contents ?? []).flatMap((o) =>
      o.Key?.endsWith('/_lease.json') ? [{ Key: o.Key }] : [],
    );
    if (leases.length > 0)
      await adminS3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: leases } }));
  };

  beforeAll(async () => {
    if (!hasMoto) return;
    sim = await startSimulator({ seed: 5 });
    config = await exampleConfig(sim.baseUrl);
    bucket = outputs.BucketName ?? '';
    // GLUE_DATABASE is left unset: moto authorises Glue calls against no resource ARN, so the Finalize
    // role's table-scoped Glue grant cannot be checked here (a template assertion in stack.test.ts).
    env = { BUCKET_NAME: bucket, EVENT_BUS_NAME: 'default', MAP_CONCURRENCY: '4' };
    iam = new IAMClient(moto.clientConfig());
    await new SecretsManagerClient(moto.clientConfig()).send(
      new CreateSecretCommand({
        Name: config.api.credentialsSecret,
        SecretString: JSON.stringify(sim.credentials),
      }),
    );
    await new SESv2Client(moto.clientConfig()).send(
      new CreateEmailIdentityCommand({ EmailIdentity: 'reports@example.com' }),
    );
    policies.plan = await rolePolicies(iam, roleOf('plan a run'));
    policies.export = await rolePolicies(iam, roleOf('export one report'));
    policies.finalize = await rolePolicies(iam, roleOf('manifest, summary email'));
    keys.plan = await createUser(iam, users.plan, policies.plan);
    keys.export = await createUser(iam, users.export, policies.export);
    keys.finalize = await createUser(iam, users.finalize, policies.finalize);
    const adminKeys = await createUser(iam, 'lp-admin', {
      admin: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] },
    });
    admin = new IAMClient(moto.clientConfig(adminKeys));
    adminS3 = new S3Client({ ...moto.clientConfig(adminKeys), forcePathStyle: true });
    await enforceIam(moto);
  }, 120_000);

  afterAll(async () => {
    await sim?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('plans (the credentials preflight: secret read and one token request; the task list) as the Plan role', async (ctx) => {
    needMoto(ctx);
    const out = await run('plan');
    expect(failure(out.stderr)).toBe('');
    expect(out.code).toBe(0);
  }, 120_000);

  it('exports every report (secret read, S3 writes, multipart upload, abort, list, delete) as the Export role', async (ctx) => {
    needMoto(ctx);
    const out = await run('export');
    expect(failure(out.stderr)).toBe('');
    expect(out.code).toBe(0);
  }, 180_000);

  it('finalizes (previous manifest, attachments, manifest, SES send, EventBridge put) as the Finalize role', async (ctx) => {
    needMoto(ctx);
    const out = await run('finalize');
    expect(failure(out.stderr)).toBe('');
    expect(out.code).toBe(0);
  }, 120_000);

  it('refuses what neither role was granted (anything outside the export prefix)', async (ctx) => {
    needMoto(ctx);
    const asExport = new S3Client({ ...moto.clientConfig(keys.export), forcePathStyle: true });
    // Export reads under the prefix (column model, lease, window manifest), never outside it
    await expect(asExport.send(new GetObjectCommand({ Bucket: bucket, Key: 'elsewhere/x' }))).rejects.toThrow(
      /Access ?Denied/i,
    );
    await expect(
      asExport.send(new PutObjectCommand({ Bucket: bucket, Key: 'elsewhere/x', Body: 'x' })),
    ).rejects.toThrow(/Access ?Denied/i);
    const asFinalize = new S3Client({ ...moto.clientConfig(keys.finalize), forcePathStyle: true });
    // Finalize deletes under the prefix (staging, lease, workflow scratch), never outside it
    await expect(
      asFinalize.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'elsewhere/x' })),
    ).rejects.toThrow(/Access ?Denied/i);
  });

  for (const who of ['plan', 'export', 'finalize'] as const) {
    it(`fails the ${who} path when any one statement of its policy is removed`, async (ctx) => {
      needMoto(ctx);
      // the Glue statements are not exercised under enforcement (see GLUE_DATABASE above)
      const removable = removableStatements(policies[who]).filter(
        (s) => !s.actions.split(',').every((a) => a.startsWith('glue:')),
      );
      expect(removable.length).toBeGreaterThanOrEqual({ plan: 2, export: 3, finalize: 4 }[who]);
      const results: { actions: string; code: number | null; error: string }[] = [];
      try {
        for (const s of removable) {
          await putUserPolicies(admin, users[who], without(policies[who], s.policy, s.index));
          const out = await run(who);
          results.push({ actions: s.actions, code: out.code, error: failure(out.stderr) });
        }
      } finally {
        await putUserPolicies(admin, users[who], policies[who]);
      }
      // Each removal fails the path, refused by IAM: moto answers a refused JSON-protocol call with
      // an XML AccessDenied body (HTTP 403), which the SDK reports as a deserialization error.
      expect(results.filter((r) => r.code === 0)).toEqual([]);
      for (const r of results) expect(r.error, r.actions).toMatch(DENIED);
    }, 600_000);
  }
});
