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
import { pathToFileURL } from 'node:url';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#core/config/load';
import { ManifestSchema } from '#core/manifest';
import { buildApp } from '../../infra/build-app';
import { definitionOf } from '../infra/synth';
import { leaks, needles } from '../support/hostile-cases';
import { type HostileServer, json, startHostileServer } from '../support/hostile-server';
import { type LocalS3, startLocalS3 } from '../support/local-s3';
import { hasMoto, type LocalServer, needMoto, startMoto, startSes } from '../support/servers';
import { type Definition, type Invoke, type MapIo, runStates } from './asl';

const ROOT = join(import.meta.dirname, '..', '..');
const BUCKET = 'hostile-run-exports';
const AT = '2026-11-23T06:00:00Z';
const SECRET = 'op-habits/s3cret+value & more-0123456789';
const PROTO = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];

type Handler = (event: unknown, context: { getRemainingTimeInMillis(): number }) => Promise<unknown>;

let server: HostileServer;
let s3: LocalS3;
let moto: LocalServer;
let ses: LocalServer;
let definition: Definition;
let bundleDir: Record<'plan' | 'export' | 'finalize', string>;
let bundled: Record<'plan' | 'export' | 'finalize', Handler>;
const outdir = join(ROOT, 'cdk.out', `hostile-run-e2e-${process.pid}`);
const savedEnv = { ...process.env };

function configText(baseUrl: string, reports = 0): string {
  const many = Array.from(
    { length: reports },
    (_, i) => `      - { id: r${i}, route: posts/performance, metrics: [likes] }`,
  );
  return `api: { baseUrl: "${baseUrl}", credentialsSecret: test/reporting, maxRetries: 0, concurrency: 4 }
output: { prefix: exports/, formats: [csv] }
email: { from: Reports <reports@example.com>, operators: [ops@example.com] }
schedules:
  - id: four
    cron: "0 6 * * ? *"
    window: yesterday
    recipients: [team@example.com]
    reports:
${['a', 'b', 'c', 'd'].map((id) => `      - { id: ${id}, route: posts/performance, metrics: [likes] }`).join('\n')}
  - id: proto
    cron: "0 6 * * ? *"
    window: yesterday
    recipients: [team@example.com]
    reports:
      - id: constructor
        route: posts/performance
        metrics: [${PROTO.join(', ')}, likes]
        summary: { kpis: [${PROTO.join(', ')}], topBy: constructor, topN: 3 }
${reports > 0 ? `  - id: big\n    cron: "0 6 * * ? *"\n    window: yesterday\n    reports:\n${many.join('\n')}\n` : ''}`;
}

async function getText(key: string): Promise<string> {
  const out = await s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return (await out.Body?.transformToString('utf8')) ?? '';
}

async function objectsBelow(prefix: string): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  const out = await s3.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  for (const o of out.Contents ?? []) texts[`s3://${BUCKET}/${o.Key}`] = await getText(o.Key ?? '');
  return texts;
}

/** One execution for `scheduleId`: every state's payload and log line as text, and how it ended. */
async function runWorkflow(scheduleId: string, handlers = bundled) {
  const texts: Record<string, string> = {};
  let n = 0;
  let manifestKey: string | null = null;
  const context = { getRemainingTimeInMillis: () => 15 * 60_000 };
  const invoke: Invoke = async (resource, input) => {
    const name = resource.includes('Plan') ? 'plan' : resource.includes('Finalize') ? 'finalize' : 'export';
    texts[`state ${n} ${name} input`] = JSON.stringify(input);
    const out = await handlers[name](JSON.parse(JSON.stringify(input)), context);
    texts[`state ${n++} ${name} output`] = JSON.stringify(out);
    if (name === 'finalize') manifestKey = (out as { manifestKey: string }).manifestKey;
    return JSON.parse(JSON.stringify(out));
  };
  const io: MapIo = {
    getObject: async (_bucket, key) => getText(key),
    putObject: async (_bucket, key, body) => {
      texts[`map object ${key}`] = body;
      await s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }));
    },
  };
  const logs: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    logs.push(String(chunk));
    return true;
  };
  const [out, err] = [process.stdout.write.bind(process.stdout), process.stderr.write.bind(process.stderr)];
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  let error: unknown = null;
  try {
    await runStates(definition, { scheduleId, scheduledTime: AT }, invoke, {}, { io });
  } catch (e: unknown) {
    error = e;
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  texts.logs = logs.join('');
  return { texts, manifestKey, error };
}

/** The token and data requests the server saw since `before`. */
function requestsSince(before: number) {
  const sent = server.requests.slice(before);
  return {
    token: sent.filter((q) => q.path === '/oauth/token').length,
    data: sent.filter((q) => q.path.startsWith('/v2/')).length,
  };
}

beforeAll(async () => {
  if (!hasMoto) return;
  server = await startHostileServer({ issueTokens: true });
  [s3, moto, ses] = await Promise.all([startLocalS3(), startMoto(), startSes(ROOT)]);
  const config = parseConfig(configText(server.baseUrl));
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
    REPORTING_CLIENT_ID: 'client-23b',
    REPORTING_CLIENT_SECRET: SECRET,
  });
  await s3.createBucket(BUCKET);
  const template = Template.fromStack(buildApp({ config, nag: false, appProps: { outdir } }).stack);
  definition = definitionOf(template) as unknown as Definition;
  const resources = (
    template.toJSON() as {
      Resources: Record<
        string,
        { Type: string; Properties: { Description?: string; Code?: { S3Key: string } } }
      >;
    }
  ).Resources;
  const dirOf = (what: string) => {
    const fn = Object.values(resources).find(
      (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description?.includes(what),
    );
    return join(outdir, `asset.${String(fn?.Properties.Code?.S3Key).replace(/\.zip$/, '')}`);
  };
  bundleDir = {
    plan: dirOf('plan a run'),
    export: dirOf('export one report'),
    finalize: dirOf('manifest, summary email'),
  };
  const load = async (dir: string) =>
    ((await import(pathToFileURL(join(dir, 'index.mjs')).href)) as { handler: Handler }).handler;
  bundled = {
    plan: await load(bundleDir.plan),
    export: await load(bundleDir.export),
    finalize: await load(bundleDir.finalize),
  };
}, 180_000);

afterAll(async () => {
  process.env = savedEnv;
  await Promise.all([server?.close(), s3?.stop(), moto?.stop(), ses?.stop()]);
  rmSync(outdir, { recursive: true, force: true });
});

describe('the deployed bundles with hostile schedules', () => {
  it('a token 403 with four reports at the Map’s concurrency 4: one token request, every report failed alike', async (ctx) => {
    needMoto(ctx);
    server.routes.set('/oauth/token', (_req, res) =>
      json(
        res,
        403,
        { title: 'Client not permitted', detail: 'Contact the account team.' },
        {
          'content-type': 'application/problem+json',
        },
      ),
    );
    const before = server.requests.length;
    const run = await runWorkflow('four');
    expect(run.error, String(run.error)).toBeNull();
    expect(requestsSince(before)).toEqual({ token: 1, data: 0 });
    const manifest = ManifestSchema.parse(JSON.parse(await getText(run.manifestKey ?? '')));
    expect(manifest.status).toBe('failed');
    const message =
      "client not permitted — retrying will not help, contact the provider's account team (POST /oauth/token answered 403 Forbidden: Client not permitted: Contact the account team.)";
    expect(manifest.reports.map((r) => [r.reportId, r.status, r.errorCode, r.error])).toEqual(
      ['a', 'b', 'c', 'd'].map((id) => [id, 'failed', 'AUTH_FORBIDDEN', message]),
    );
    const texts = { ...run.texts, ...(await objectsBelow('exports/four/')) };
    expect(leaks(texts, needles(SECRET, undefined))).toEqual([]);
  });

  it('metric and report names from Object’s prototype: exported, totalled and emailed', async (ctx) => {
    needMoto(ctx);
    server.routes.clear();
    server.routes.set('/oauth/token', (_req, res) => json(res, 200, { jwt: 'a.b.c' }));
    server.routes.set('/v2/posts/performance', (req, res) => {
      const metrics = Object.fromEntries(req.url.searchParams.getAll('metrics').map((m, i) => [m, i + 1]));
      json(res, 200, {
        data: [
          { postId: 'p1', metrics },
          { postId: 'p2', metrics },
        ],
        nextCursor: null,
      });
    });
    const run = await runWorkflow('proto');
    expect(run.error, String(run.error)).toBeNull();
    const manifest = ManifestSchema.parse(JSON.parse(await getText(run.manifestKey ?? '')));
    expect(manifest.reports.map((r) => [r.reportId, r.status])).toEqual([['constructor', 'succeeded']]);
    expect(manifest.reports[0]?.totals).toEqual(
      JSON.parse('{"constructor": 2, "toString": 4, "__proto__": 6, "hasOwnProperty": 8, "likes": 10}'),
    );
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
    writeFileSync(big, JSON.stringify(parseConfig(configText(server.baseUrl, 500))));
    process.env.REPORT_EXPORTER_CONFIG_FILE = big;
    try {
      const href = `${pathToFileURL(join(bundleDir.plan, 'index.mjs')).href}?big`;
      const plan = ((await import(href)) as { handler: Handler }).handler;
      const before = server.requests.length;
      const run = await runWorkflow('big', { ...bundled, plan });
      expect(String(run.error)).toContain('the deployed config has 1 problem for a deployment:');
      expect(String(run.error)).toMatch(
        /schedules\[2\]\.reports: a run of schedule "big" could pass ~\d+ KB between its steps/,
      );
      expect(run.manifestKey).toBeNull();
      expect(requestsSince(before)).toEqual({ token: 0, data: 0 });
      expect(Object.keys(await objectsBelow('exports/big/'))).toEqual([]);
      expect(readFileSync(big, 'utf8')).not.toContain(SECRET);
    } finally {
      delete process.env.REPORT_EXPORTER_CONFIG_FILE;
    }
  });
});
