/**
 * Issue 23's hostile schedules through the deployed path — the cases of test/e2e/hostile-run.test.ts
 * that apply to the Lambda: the bundles `cdk synth` produces, driven by the synthesized state machine
 * (./asl.ts), against a loopback API, S3 on fauxqs, SES on aws-ses-v2-local and moto_server. A token
 * 403 with four reports at the Map's concurrency 4 must make one token request and fail every report
 * with the same message; metric and report names from Object's prototype must be exported, totalled
 * and emailed; a config over the limits `validate` checks (500 reports, deployed before the limit
 * existed) must stop in Plan before anything is fetched; a report asked for twice is planned once.
 * The token 403 runs each Map item in an Export container of its own (a fresh import of the bundle,
 * as on AWS at the Map's concurrency), so the one token request is the run's, not one container's;
 * a secret that is missing or half-set stops the run in Plan (the credentials preflight) before any
 * task, with the CLI's message; a token route that fails Plan's request transiently (503) does not
 * stop the run. Each as in the CLI, with a scan for the client secret.
 * `npm run test:node22` runs it on Node 22.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateSecretCommand,
  DeleteSecretCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#core/config/load';
import { ManifestSchema } from '#core/manifest';
import { buildApp } from '../../infra/build-app';
import { definitionOf } from '../infra/synth';
import { leaks, needles } from '../support/hostile-cases';
import {
  AT,
  CLIENT_ID,
  forbidTokens,
  PROTO_TOTALS,
  requestsSince,
  SECRET,
  SECRET_HALF_MESSAGE,
  SECRET_MISSING_MESSAGE,
  schedulesConfig,
  serveRows,
  TOKEN_403_MESSAGE,
} from '../support/hostile-schedules';
import { type HostileServer, json, startHostileServer } from '../support/hostile-server';
import { type LocalS3, startLocalS3 } from '../support/local-s3';
import { hasMoto, type LocalServer, needMoto, startMoto, startSes } from '../support/servers';
import type { Definition } from './asl';
import {
  type Bundles,
  bucketOf,
  bundleDirs,
  loadBundle,
  loadBundles,
  type Step,
  traceWorkflow,
} from './traced-workflow';

const ROOT = join(import.meta.dirname, '..', '..');
const BUCKET = 'hostile-run-exports';
let server: HostileServer;
let s3: LocalS3;
let moto: LocalServer;
let ses: LocalServer;
let definition: Definition;
let bundleDir: Record<Step, string>;
let bundled: Bundles;
const outdir = join(ROOT, 'cdk.out', `hostile-run-e2e-${process.pid}`);
const savedEnv = { ...process.env };

let bucket: ReturnType<typeof bucketOf>;

/**
 * One execution for `scheduleId`, with ample time in every step; with `containers: 'per item'`, each
 * Map item's Export steps run in a cold Export container of their own.
 */
const runWorkflow = (scheduleId: string, bundles = bundled, containers: 'shared' | 'per item' = 'shared') =>
  traceWorkflow({
    definition,
    bundles,
    bucket,
    input: { scheduleId, scheduledTime: AT },
    budgetMs: 15 * 60_000,
    ...(containers === 'per item' ? { coldExport: () => loadBundle(bundleDir.export, randomUUID()) } : {}),
  });
const getText = (key: string) => bucket.getText(key);
const objectsBelow = (prefix: string) => bucket.objectsBelow(prefix);

beforeAll(async () => {
  if (!hasMoto) return;
  server = await startHostileServer({ issueTokens: true });
  [s3, moto, ses] = await Promise.all([startLocalS3(), startMoto(), startSes(ROOT)]);
  const config = parseConfig(schedulesConfig(server.baseUrl));
  delete process.env.REPORT_EXPORTER_CONFIG_FILE; // each bundle reads the config file bundled beside it
  Object.assign(process.env, {
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_ENDPOINT_URL_S3: s3.endpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: moto.endpoint,
    AWS_ENDPOINT_URL_EVENTBRIDGE: moto.endpoint,
    AWS_ENDPOINT_URL_SESV2: ses.endpoint,
    BUCKET_NAME: BUCKET,
    EVENT_BUS_NAME: 'default',
    MAP_CONCURRENCY: '4',
    POWERTOOLS_METRICS_DISABLED: 'true',
    REPORTING_CLIENT_ID: CLIENT_ID,
    REPORTING_CLIENT_SECRET: SECRET,
  });
  await s3.createBucket(BUCKET);
  const template = Template.fromStack(buildApp({ config, nag: false, appProps: { outdir } }).stack);
  definition = definitionOf(template) as unknown as Definition;
  bucket = bucketOf(s3, BUCKET);
  bundleDir = bundleDirs(template, outdir);
  bundled = await loadBundles(bundleDir);
}, 180_000);

afterAll(async () => {
  process.env = savedEnv;
  await Promise.all([server?.close(), s3?.stop(), moto?.stop(), ses?.stop()]);
  rmSync(outdir, { recursive: true, force: true });
});

describe('the deployed bundles with hostile schedules', () => {
  for (const containers of ['shared', 'per item'] as const) {
    it(`a token 403 with four reports at the Map’s concurrency 4, Export containers ${containers}: one token request (Plan’s), every report failed alike`, async (ctx) => {
      needMoto(ctx);
      forbidTokens(server);
      const before = server.requests.length;
      const run = await runWorkflow('four', bundled, containers);
      expect(run.error, String(run.error)).toBeNull();
      expect(run.exportContainers).toBe(containers === 'shared' ? 1 : 4);
      expect(requestsSince(server, before)).toEqual({ token: 1, data: 0 });
      // Plan's answer went to every task's first step: a code and the message, no token
      const firstSteps = Object.entries(run.texts).filter(
        ([k, v]) => /export input$/.test(k) && !v.includes('"checkpoint"'),
      );
      expect(firstSteps).toHaveLength(4);
      for (const [, input] of firstSteps) {
        expect(JSON.parse(input).credentials).toEqual({
          status: 'rejected',
          code: 'AUTH_FORBIDDEN',
          message: TOKEN_403_MESSAGE,
        });
      }
      await expectAllFailed(run);
    });
  }

  it('a token route down for Plan’s one request (503): the run goes on unchecked, the Export containers get their own tokens', async (ctx) => {
    needMoto(ctx);
    serveRows(server);
    let asked = 0;
    server.routes.set('/oauth/token', (_req, res) =>
      asked++ === 0 ? json(res, 503, { title: 'Unavailable' }) : json(res, 200, { jwt: 'a.b.c' }),
    );
    const before = server.requests.length;
    const run = await runWorkflow('four', bundled, 'per item');
    expect(run.error, String(run.error)).toBeNull();
    const plan = JSON.parse(run.texts['state 0 plan output'] ?? '{}');
    expect(plan.credentials.status).toBe('unchecked');
    expect(plan.credentials.reason).toContain('503');
    expect(run.texts.logs).toContain('the API credentials could not be checked before the run');
    // Plan's failed request, then one per Export container; every report exported
    expect(requestsSince(server, before)).toEqual({ token: 1 + 4, data: 4 });
    const manifest = ManifestSchema.parse(JSON.parse(await getText(run.manifestKey ?? '')));
    expect(manifest.reports.map((r) => r.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    expect(leaks(run.texts, needles(SECRET, undefined))).toEqual([]);
  });

  it('a missing or half-set secret stops the run in Plan: before any task, no manifest, no request, the CLI’s message', async (ctx) => {
    needMoto(ctx);
    serveRows(server);
    const secrets = new SecretsManagerClient({ endpoint: moto.endpoint, region: 'eu-central-1' });
    delete process.env.REPORTING_CLIENT_ID;
    delete process.env.REPORTING_CLIENT_SECRET;
    try {
      for (const [secret, message] of [
        [null, SECRET_MISSING_MESSAGE],
        [JSON.stringify({ clientId: CLIENT_ID }), SECRET_HALF_MESSAGE],
      ] as const) {
        if (secret !== null) {
          await secrets.send(new CreateSecretCommand({ Name: 'test/reporting', SecretString: secret }));
        }
        const plan = await loadBundle(bundleDir.plan, randomUUID()); // a cold container: no cached secret
        const before = server.requests.length;
        const objects = Object.keys(await objectsBelow('exports/'));
        const run = await runWorkflow('four', { ...bundled, plan });
        expect(run.error).toBeInstanceOf(Error);
        expect((run.error as Error).message).toBe(message);
        expect(Object.keys(run.texts).filter((k) => k.startsWith('state'))).toEqual(['state 0 plan input']);
        expect(run.manifestKey).toBeNull();
        expect(run.exportSteps).toBe(0);
        expect(requestsSince(server, before)).toEqual({ token: 0, data: 0 });
        // no task list, no manifest, nothing else written
        expect(Object.keys(await objectsBelow('exports/'))).toEqual(objects);
        expect(leaks(run.texts, needles(SECRET, undefined))).toEqual([]);
      }
    } finally {
      await secrets
        .send(new DeleteSecretCommand({ SecretId: 'test/reporting', ForceDeleteWithoutRecovery: true }))
        .catch(() => undefined); // not created when the first case failed
      Object.assign(process.env, { REPORTING_CLIENT_ID: CLIENT_ID, REPORTING_CLIENT_SECRET: SECRET });
    }
  });

  /** The 403 run's manifest: every report failed with the CLI's message; no secret anywhere. */
  async function expectAllFailed(run: Awaited<ReturnType<typeof runWorkflow>>) {
    const manifest = ManifestSchema.parse(JSON.parse(await getText(run.manifestKey ?? '')));
    expect(manifest.status).toBe('failed');
    const message = TOKEN_403_MESSAGE;
    expect(manifest.reports.map((r) => [r.reportId, r.status, r.errorCode, r.error])).toEqual(
      ['a', 'b', 'c', 'd'].map((id) => [id, 'failed', 'AUTH_FORBIDDEN', message]),
    );
    const texts = { ...run.texts, ...(await objectsBelow('exports/four/')) };
    expect(leaks(texts, needles(SECRET, undefined))).toEqual([]);
  }

  it('metric and report names from Object’s prototype: exported, totalled and emailed', async (ctx) => {
    needMoto(ctx);
    serveRows(server);
    const run = await runWorkflow('proto');
    expect(run.error, String(run.error)).toBeNull();
    const manifest = ManifestSchema.parse(JSON.parse(await getText(run.manifestKey ?? '')));
    expect(manifest.reports.map((r) => [r.reportId, r.status])).toEqual([['constructor', 'succeeded']]);
    expect(manifest.reports[0]?.totals).toEqual(PROTO_TOTALS);
    const store = (await (await fetch(`${ses.endpoint}/store`)).json()) as {
      emails: Array<{ subject: string }>;
    };
    const emails = store.emails.filter((e) => e.subject.startsWith('proto:')).map((e) => JSON.stringify(e));
    expect(emails.length).toBeGreaterThan(0);
    for (const label of ['Constructor', 'To string', 'Proto', 'Has own property'])
      expect(emails.join('\n')).toContain(label);
    expect(run.texts.logs).not.toContain('charAt');
    const texts = { ...run.texts, ...(await objectsBelow('exports/proto/')), emails: JSON.stringify(store) };
    expect(leaks(texts, needles(SECRET, undefined))).toEqual([]);
  });

  it('a report asked for twice is planned once', async (ctx) => {
    needMoto(ctx);
    const plan = (await bundled.plan(
      { scheduleId: 'four', scheduledTime: AT, reportIds: ['b', 'b'] },
      {
        getRemainingTimeInMillis: () => 60_000,
      },
    )) as { taskCount: number };
    expect(plan.taskCount).toBe(1);
  });

  it('a deployed config over the limits validate checks (500 reports) stops in Plan before anything is fetched', async (ctx) => {
    needMoto(ctx);
    // as if deployed before the limit existed: the Plan bundle given a config synth would refuse
    const big = join(outdir, 'big-config.json');
    writeFileSync(big, JSON.stringify(parseConfig(schedulesConfig(server.baseUrl, true))));
    process.env.REPORT_EXPORTER_CONFIG_FILE = big;
    try {
      const plan = await loadBundle(bundleDir.plan, 'big'); // a cold container
      const before = server.requests.length;
      const run = await runWorkflow('big', { ...bundled, plan });
      expect(String(run.error)).toContain('the deployed config has 1 problem for a deployment:');
      expect(String(run.error)).toMatch(
        /schedules\[2\]\.reports: a run of schedule "big" could pass ~\d+ KB between its steps/,
      );
      expect(run.manifestKey).toBeNull();
      expect(requestsSince(server, before)).toEqual({ token: 0, data: 0 });
      expect(Object.keys(await objectsBelow('exports/big/'))).toEqual([]);
      expect(readFileSync(big, 'utf8')).not.toContain(SECRET);
    } finally {
      delete process.env.REPORT_EXPORTER_CONFIG_FILE;
    }
  });
});
