/**
 * Issue 23's hostile schedules through the deployed path — the cases of test/e2e/hostile-run.test.ts
 * that apply to the Lambda: the bundles `cdk synth` produces, driven by the synthesized state machine
 * (./asl.ts), against a loopback API, S3 on fauxqs, SES on aws-ses-v2-local and moto_server. A token
 * 403 with four reports at the Map's concurrency 4 must make one token request and fail every report
 * with the same message; metric and report names from Object's prototype must be exported, totalled
 * and emailed; a config over the limits `validate` checks (500 reports, deployed before the limit
 * existed) must stop in Plan before anything is fetched; a report asked for twice is planned once.
 * Each as in the CLI, with a scan for the client secret. `npm run test:node22` runs it on Node 22.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  schedulesConfig,
  serveRows,
  TOKEN_403_MESSAGE,
} from '../support/hostile-schedules';
import { type HostileServer, startHostileServer } from '../support/hostile-server';
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

/** One execution for `scheduleId`, with ample time in every step. */
const runWorkflow = (scheduleId: string, bundles = bundled) =>
  traceWorkflow({
    definition,
    bundles,
    bucket,
    input: { scheduleId, scheduledTime: AT },
    budgetMs: 15 * 60_000,
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
  it('a token 403 with four reports at the Map’s concurrency 4: one token request, every report failed alike', async (ctx) => {
    needMoto(ctx);
    forbidTokens(server);
    const before = server.requests.length;
    const run = await runWorkflow('four');
    expect(run.error, String(run.error)).toBeNull();
    expect(requestsSince(server, before)).toEqual({ token: 1, data: 0 });
    const manifest = ManifestSchema.parse(JSON.parse(await getText(run.manifestKey ?? '')));
    expect(manifest.status).toBe('failed');
    const message = TOKEN_403_MESSAGE;
    expect(manifest.reports.map((r) => [r.reportId, r.status, r.errorCode, r.error])).toEqual(
      ['a', 'b', 'c', 'd'].map((id) => [id, 'failed', 'AUTH_FORBIDDEN', message]),
    );
    const texts = { ...run.texts, ...(await objectsBelow('exports/four/')) };
    expect(leaks(texts, needles(SECRET, undefined))).toEqual([]);
  });

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
