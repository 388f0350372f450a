/**
 * `cdk synth` as a command, offline and with no AWS credentials: the example config synthesizes
 * (bundling with the local esbuild), the bundles load and the Plan bundle plans a run from its
 * embedded config (writing the task list to a local S3 server); an invalid config fails with the same path-named problems as `validate`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#core/config/load';
import { isExporterError } from '#core/errors';
import { jwtOf } from '../support/hostile-server';
import { startLocalS3 } from '../support/local-s3';
import { ROOT } from './synth';

const CDK = join(ROOT, 'node_modules', '.bin', 'cdk');

/** The environment without AWS credentials or profiles, with the CLI's network calls off. */
function offlineEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^AWS_(ACCESS|SECRET|SESSION|PROFILE|DEFAULT_PROFILE)|^CDK_/.test(k)) env[k] = v;
  }
  return {
    ...env,
    CDK_DISABLE_VERSION_CHECK: '1',
    CDK_DISABLE_CLI_TELEMETRY: 'true',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
}

function synth(configPath: string, outdir: string) {
  return spawnSync(CDK, ['synth', '-q', '--no-notices', '-c', `config=${configPath}`, '-o', outdir], {
    cwd: ROOT,
    env: offlineEnv(),
    encoding: 'utf8',
    timeout: 180_000,
  });
}

interface Template {
  Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
}

describe('cdk synth -c config=reports.yaml', () => {
  // Inside the repo, so any module left external would resolve from node_modules when loaded.
  const outdir = join(ROOT, 'cdk.out', `test-${process.pid}`);
  let result: ReturnType<typeof synth>;
  let template: Template;

  beforeAll(() => {
    result = synth('reports.yaml', outdir);
    if (result.status === 0) {
      template = JSON.parse(readFileSync(join(outdir, 'ReportExporter.template.json'), 'utf8')) as Template;
    }
  }, 200_000);

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('succeeds offline without credentials and writes the template', () => {
    expect(result.stderr).not.toMatch(/AwsSolutions-/);
    expect(result.status).toBe(0);
    const types = Object.values(template.Resources).map((r) => r.Type);
    expect(types.filter((t) => t === 'AWS::Scheduler::Schedule')).toHaveLength(2);
    expect(types.filter((t) => t === 'AWS::Lambda::Function')).toHaveLength(3);
  });

  it('bundles handlers that load, and a Plan bundle that plans from its embedded config', async () => {
    const assets = Object.values(template.Resources)
      .filter((r) => r.Type === 'AWS::Lambda::Function')
      .map((r) => {
        const key = String((r.Properties.Code as { S3Key: string }).S3Key).replace(/\.zip$/, '');
        return {
          description: String(r.Properties.Description),
          file: join(outdir, `asset.${key}`, 'index.mjs'),
        };
      });
    for (const a of assets) {
      const mod = (await import(pathToFileURL(a.file).href)) as { handler: unknown };
      expect(typeof mod.handler, a.description).toBe('function');
      // node:http and node:https come through their CommonJS shims (BUILTIN_SHIMS): an ES import of
      // either makes Node load its bundled undici at every cold start
      const text = readFileSync(a.file, 'utf8');
      expect(text, a.description).not.toMatch(/from\s*"(node:)?https?"/);
      expect(text, a.description).toMatch(/getBuiltinModule\("node:https"\)/);
      // code a Lambda never runs stays out (PACKAGE_SHIMS): the credential chain's STS, SSO and
      // shared-config links, and semver
      expect(text, a.description).not.toContain('AssumeRoleWithWebIdentity');
      expect(text, a.description).not.toContain('credential-provider-ini - fromIni');
      expect(text, a.description).not.toContain('Invalid Version');
      expect(existsSync(`${a.file}.map`), a.description).toBe(true);
      // the example config names no ssm: recipient list, so no bundle carries the SSM client
      // (SSM_RECIPIENTS_DEFINE, infra/constructs/functions.ts)
      expect(text, a.description).not.toContain('AmazonSSM');
    }
    // A trace through a deployed bundle names the TypeScript, its map read at that first trace
    // (functions/handlers/stack-traces.ts), as `--enable-source-maps` would at every cold start.
    const planBundle = assets.find((a) => a.description.includes('plan a run'));
    const planModule = (await import(pathToFileURL(String(planBundle?.file)).href)) as {
      handler(event: unknown, context: unknown): Promise<unknown>;
    };
    const thrown = await planModule
      .handler(42, { getRemainingTimeInMillis: () => 10_000, awsRequestId: 'trace' })
      .then(
        () => undefined,
        (e: Error) => e,
      );
    expect(thrown?.stack).toMatch(/\(.*functions\/handlers\/plan\.ts:\d+:\d+\)/);
    // The Plan bundle writes the run's tasks to S3 (a local S3 server here) and returns where.
    const plan = assets.find((a) => a.description.includes('plan a run'));
    const s3 = await startLocalS3();
    const saved = { ...process.env };
    const realFetch = globalThis.fetch;
    // Plan checks the API credentials before writing the tasks (one token request): the config's
    // API is not reachable from here, so its token route answers in-process, and the credentials
    // come from the local override instead of Secrets Manager.
    const tokenRequests: string[] = [];
    globalThis.fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.startsWith('https://reporting.example.com/')) return realFetch(input, init);
      tokenRequests.push(url);
      return new Response(JSON.stringify({ jwt: jwtOf({ sub: 'c', exp: 4e9 }) }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    try {
      await s3.createBucket('plan-bucket');
      Object.assign(process.env, {
        BUCKET_NAME: 'plan-bucket',
        AWS_ENDPOINT_URL_S3: s3.endpoint,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
        REPORTING_CLIENT_ID: 'plan-test-client',
        REPORTING_CLIENT_SECRET: 'plan-test-secret',
      });
      const { handler } = (await import(pathToFileURL(plan?.file ?? '').href)) as {
        handler: (
          e: unknown,
          context: unknown,
        ) => Promise<{
          window: { start: string; end: string };
          items: { bucket: string; key: string };
          taskCount: number;
        }>;
      };
      const out = await handler(
        { scheduleId: 'weekly-campaigns', scheduledTime: '2026-11-23T07:00:00Z' },
        { getRemainingTimeInMillis: () => 60_000, awsRequestId: 'plan-test', functionName: 'plan' },
      );
      expect(out.window).toMatchObject({ start: '2026-11-16', end: '2026-11-22' });
      expect(out.taskCount).toBe(4);
      const got = await s3.client.send(new GetObjectCommand({ Bucket: 'plan-bucket', Key: out.items.key }));
      const tasks = JSON.parse((await got.Body?.transformToString()) ?? '[]') as { reportId: string }[];
      expect(tasks.map((t) => t.reportId)).toEqual(['campaigns', 'creators', 'posts', 'platforms']);
      expect(tokenRequests).toEqual(['https://reporting.example.com/oauth/token']);
      expect((out as { credentials?: { status: string } }).credentials?.status).toBe('accepted');
    } finally {
      globalThis.fetch = realFetch;
      process.env = saved;
      await s3.stop();
    }
  }, 60_000);
});

describe('cdk synth with an invalid config', () => {
  const dir = mkdtempSync(join(tmpdir(), 'infra-bad-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails with the same path-named problems as validate', () => {
    const text = readFileSync(join(ROOT, 'reports.yaml'), 'utf8')
      .replace(
        'filters: { platform: instagram, dateBasis: post_date }',
        'filters: { platform: instagram, contentType: reel }',
      )
      .replace('timezone: America/New_York', 'timezone: Mars/Olympus');
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, text);
    let problems: string[] = [];
    try {
      parseConfig(text, file);
    } catch (err: unknown) {
      if (isExporterError(err)) problems = (err.details.problems as string[]) ?? [];
    }
    expect(problems).toContain(
      'schedules[0].reports[0].filters: platform and contentType are mutually exclusive',
    );
    expect(problems.some((p) => p.startsWith('schedules[1].timezone: unknown timezone "Mars/Olympus"'))).toBe(
      true,
    );

    const out = synth(file, join(dir, 'out'));
    expect(out.status).not.toBe(0);
    for (const p of problems) expect(out.stderr).toContain(p);
  }, 120_000);
});
