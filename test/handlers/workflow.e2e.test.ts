/**
 * The three Lambda handlers end to end, driven by the synthesized state machine definition (a small
 * ASL interpreter, ./asl.ts) — Plan (tasks to S3) → Distributed Map over windows × reports (items read
 * from S3, results written to S3) → Export (looping on `continue`, with a time budget so small that
 * every paged report really continues) → Finalize (results read back from S3) — for a schedule with
 * `lookback: 1`, so every run exports its own week and re-exports the week before —
 * against the API simulator, an S3-protocol server (fauxqs), the SES emulator and moto_server
 * (Secrets Manager for the credentials, EventBridge → SQS for the completion event), all on loopback.
 * The files must be those `report-exporter run` writes for the same config and scheduled time.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EventBridgeClient, PutRuleCommand, PutTargetsCommand } from '@aws-sdk/client-eventbridge';
import { CreateDatabaseCommand, GetTablesCommand, GlueClient } from '@aws-sdk/client-glue';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCliLog } from '#adapters/cli-log';
import { createS3Sink } from '#adapters/s3-sink';
import { realApi, runAll } from '#cli/commands/run';
import { BUNDLED_CONFIG_FILE } from '#core/config/bundled';
import type { Config } from '#core/config/schema';
import { type Manifest, ManifestSchema } from '#core/manifest';
import type { PlannedRun } from '#core/run/map-results';
import type { ExportStepResult, ReportOutcome } from '#core/run/types';
import { type Simulator, startSimulator } from '#simulator/server';
import { buildApp } from '../../infra/build-app';
import { writeBundledConfig } from '../../infra/stacks/exporter-stack';
import { duckQuery, lit } from '../core/export/duck';
import { exampleConfig } from '../e2e/helpers';
import { definitionOf } from '../infra/synth';
import { type LocalS3, startLocalS3 } from '../support/local-s3';
import { hasMoto, type LocalServer, needMoto, startMoto, startSes } from '../support/servers';
import { type Definition, type Invoke, type MapIo, type Observed, runStates } from './asl';

const ROOT = join(import.meta.dirname, '..', '..');
const RUN = { scheduleId: 'weekly-campaigns', scheduledTime: '2026-11-23T07:00:00Z' };
const HANDLER_BUCKET = 'handler-exports';
const CLI_BUCKET = 'cli-exports';
const BUNDLE_BUCKET = 'bundle-exports';
const REGION = 'eu-central-1';
const PAYLOAD_LIMIT = 256 * 1024;
const GLUE_DB = 'report_exporter';

/** DuckDB's names for the Parquet types the exporter writes → Glue's. */
const GLUE_OF_DUCK: Record<string, string> = {
  VARCHAR: 'string',
  BIGINT: 'bigint',
  DOUBLE: 'double',
  DATE: 'date',
  'TIMESTAMP WITH TIME ZONE': 'timestamp',
  BOOLEAN: 'boolean',
};

/** Name and Glue type of every column of one Parquet object, read back by DuckDB. */
async function parquetColumns(bucket: string, key: string): Promise<string[]> {
  const out = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const dir = mkdtempSync(join(tmpdir(), 'glue-check-'));
  try {
    const path = join(dir, 'part.parquet');
    writeFileSync(path, (await out.Body?.transformToByteArray()) ?? new Uint8Array());
    const desc = await duckQuery(
      `DESCRIBE SELECT * FROM read_parquet(${lit(path)}, hive_partitioning = false)`,
    );
    return desc.map(
      (d) => `${String(d.column_name)}:${GLUE_OF_DUCK[String(d.column_type)] ?? String(d.column_type)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type LambdaContext = { getRemainingTimeInMillis(): number };
type Handlers = {
  plan: (e: unknown, c: LambdaContext) => Promise<PlannedRun>;
  export: (e: unknown, c: LambdaContext) => Promise<ExportStepResult>;
  finalize: (
    e: unknown,
    c: LambdaContext,
  ) => Promise<{
    manifestKey: string;
    runRecordKey: string;
    manifestLocation: string;
    status: string;
    emailed: number;
  }>;
};

let sim: Simulator;
let s3: LocalS3;
let moto: LocalServer;
let ses: LocalServer;
let config: Config;
let handlers: Handlers;
let queueUrl = '';
// Under the repo, so the SDK clients the bundles leave to the Lambda runtime resolve from node_modules.
const outdir = join(ROOT, 'cdk.out', `e2e-${process.pid}`);
let synthesized: Template;
let definition: Definition;
const savedEnv = { ...process.env };

/** moto's SQS over its JSON protocol (no SQS client in this project's dependencies). */
async function sqs<T>(action: string, body: Record<string, unknown>): Promise<T> {
  const res = await fetch(moto.endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `AmazonSQS.${action}`,
      authorization: `AWS4-HMAC-SHA256 Credential=test/20261123/${REGION}/sqs/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`SQS ${action}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Every completion event waiting in the queue (received and hidden for a minute). */
async function drainEvents(): Promise<Record<string, unknown>[]> {
  const events: Record<string, unknown>[] = [];
  for (;;) {
    const { Messages = [] } = await sqs<{ Messages?: { Body: string }[] }>('ReceiveMessage', {
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      VisibilityTimeout: 60,
    });
    if (Messages.length === 0) return events;
    events.push(...Messages.map((m) => JSON.parse(m.Body) as Record<string, unknown>));
  }
}

/**
 * The synthesized state machine definition run by the ASL interpreter, its Tasks calling the handlers
 * (each payload through JSON, as Step Functions passes it).
 */
async function runWorkflow(
  budgetMs: number,
  h: Handlers = handlers,
): Promise<{
  plan: PlannedRun;
  outcomes: ReportOutcome[];
  /** Continuations per report of the run's own window. */
  continues: Record<string, number>;
  /** Every (window end, report) an Export step ran for. */
  tasks: Set<string>;
  /** Per (window end, report): the sums of its steps' own counts, as the Export handler returned them. */
  steps: Record<string, { pages: number; rows: number; retries: number }>;
  largestPayload: number;
  observed: Observed;
  finalized: Awaited<ReturnType<Handlers['finalize']>>;
}> {
  const through = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
  let largestPayload = 0;
  let plan: PlannedRun | undefined;
  const continues: Record<string, number> = {};
  const tasks = new Set<string>();
  const steps: Record<string, { pages: number; rows: number; retries: number }> = {};
  const outcomes: ReportOutcome[] = [];
  const context = { getRemainingTimeInMillis: () => budgetMs };
  const invoke: Invoke = async (resource, input) => {
    largestPayload = Math.max(largestPayload, JSON.stringify(input).length);
    let out: unknown;
    if (resource.includes('Plan')) out = plan = await h.plan(input, context);
    else if (resource.includes('Finalize')) out = await h.finalize(input, context);
    else {
      const result = await h.export(input, context);
      const id = `${result.task.window.end}/${result.task.reportId}`;
      tasks.add(id);
      const sum = steps[id] ?? { pages: 0, rows: 0, retries: 0 };
      steps[id] = {
        pages: sum.pages + result.step.pages,
        rows: sum.rows + result.step.rows,
        retries: sum.retries + result.step.retries,
      };
      if (result.status === 'done') outcomes.push(result.outcome);
      else if (!result.task.restate)
        continues[result.task.reportId] = (continues[result.task.reportId] ?? 0) + 1;
      out = result;
    }
    largestPayload = Math.max(largestPayload, JSON.stringify(out).length);
    return through(out);
  };
  const observed: Observed = { mapItems: [], largestState: 0 };
  const finalized = (await runStates(definition, RUN, invoke, {}, { io: s3Io, observed })) as Awaited<
    ReturnType<Handlers['finalize']>
  >;
  if (!plan) throw new Error('the workflow never planned');
  return { plan, outcomes, continues, tasks, steps, largestPayload, observed, finalized };
}

/**
 * The Distributed Map's S3, on the local S3 server: the bucket in the definition is a CloudFormation
 * token, so objects go to the bucket the handlers write to (`BUCKET_NAME`, read at each call).
 */
const s3Io: MapIo = {
  getObject: async (_bucket, key) => getText(String(process.env.BUCKET_NAME), key),
  putObject: async (_bucket, key, body) => {
    await s3.client.send(
      new PutObjectCommand({ Bucket: String(process.env.BUCKET_NAME), Key: key, Body: body }),
    );
  },
};

async function listKeys(bucket: string, raw = false): Promise<string[]> {
  const out = await s3.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'exports/' }));
  if (raw) return (out.Contents ?? []).map((o) => o.Key ?? '').sort();
  // Each run keeps its own record (`runs/{runId}.json`); run ids differ between buckets.
  // The figures last emailed (`emailed.json`) exist only where an email went out: the workflow sends
  // one, the `run` it is compared with does not.
  const keys = (out.Contents ?? [])
    .map((o) => (o.Key ?? '').replace(/\/runs\/[^/]+\.json$/, '/runs/*.json'))
    .filter((k) => !k.endsWith('/emailed.json'));
  return [...new Set(keys)].sort();
}

async function getText(bucket: string, key: string): Promise<string> {
  const out = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return (await out.Body?.transformToString('utf8')) ?? '';
}

async function manifestOf(bucket: string, key: string): Promise<Manifest> {
  return ManifestSchema.parse(JSON.parse(await getText(bucket, key)));
}

/** A report's CSV rows across all its parts, without the header row each part carries. */
async function csvRows(bucket: string, keys: readonly string[], reportId: string): Promise<string[]> {
  const parts = keys.filter((k) => k.includes(`/${reportId}/csv/`) && k.endsWith('.csv'));
  const rows: string[] = [];
  for (const k of parts) rows.push(...(await getText(bucket, k)).split('\r\n').slice(1).filter(Boolean));
  return rows;
}

const notPart = (k: string) => !/\/part-\d{5}\.(csv|parquet)$/.test(k);

let cliManifest: Manifest;
let cliKeys: string[];
let small: Awaited<ReturnType<typeof runWorkflow>>;
let smallKeys: string[];
let smallManifest: Manifest;
/** What the handlers wrote to stdout (Powertools JSON logs) during the small-budget run. */
const logLines: string[] = [];

beforeAll(async () => {
  if (!hasMoto) return;
  sim = await startSimulator({ seed: 5, dialect: { strict: true, arrayFormat: 'repeat' } });
  [s3, moto, ses] = await Promise.all([startLocalS3(), startMoto(), startSes(ROOT)]);
  const example = await exampleConfig(sim.baseUrl); // pageSize 100: the paged reports have several pages
  config = {
    ...example,
    schedules: example.schedules.map((s) => (s.id === RUN.scheduleId ? { ...s, lookback: 1 } : s)),
  };
  delete process.env.REPORTING_CLIENT_ID;
  delete process.env.REPORTING_CLIENT_SECRET;
  Object.assign(process.env, {
    AWS_REGION: REGION,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_ENDPOINT_URL_S3: s3.endpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: moto.endpoint,
    AWS_ENDPOINT_URL_EVENTBRIDGE: moto.endpoint,
    AWS_ENDPOINT_URL_SESV2: ses.endpoint,
    AWS_ENDPOINT_URL_GLUE: moto.endpoint,
    GLUE_DATABASE: GLUE_DB,
    BUCKET_NAME: HANDLER_BUCKET,
    EVENT_BUS_NAME: 'default',
    MAP_CONCURRENCY: '4',
    POWERTOOLS_LOG_LEVEL: 'DEBUG',
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  await s3.createBucket(HANDLER_BUCKET);
  await s3.createBucket(CLI_BUCKET);
  await new SecretsManagerClient({}).send(
    new CreateSecretCommand({
      Name: config.api.credentialsSecret,
      SecretString: JSON.stringify(sim.credentials),
    }),
  );
  ({ QueueUrl: queueUrl } = await sqs<{ QueueUrl: string }>('CreateQueue', { QueueName: 'completed' }));
  const events = new EventBridgeClient({});
  await events.send(
    new PutRuleCommand({ Name: 'completed', EventPattern: JSON.stringify({ source: ['report-exporter'] }) }),
  );
  await events.send(
    new PutTargetsCommand({
      Rule: 'completed',
      Targets: [{ Id: 'q', Arn: `arn:aws:sqs:${REGION}:123456789012:completed` }],
    }),
  );

  // The app as deployed for this config: its state machine definition drives the workflow below.
  synthesized = Template.fromStack(buildApp({ config, nag: false, appProps: { outdir } }).stack);
  definition = definitionOf(synthesized) as unknown as Definition;

  // The template's Glue database, created in moto as CloudFormation would; Finalize creates the tables.
  await new GlueClient({}).send(new CreateDatabaseCommand({ DatabaseInput: { Name: GLUE_DB } }));

  // The same config file the CDK app bundles, written by the same function.
  process.env.REPORT_EXPORTER_CONFIG_FILE = writeBundledConfig(config, outdir);
  handlers = {
    plan: (await import('#handlers/plan')).handler,
    // the workflow never sends `{"check": true}`, so the Export handler answers with a step result
    export: (await import('#handlers/export')).handler as Handlers['export'],
    finalize: (await import('#handlers/finalize')).handler,
  };

  // `report-exporter run --bucket cli-exports --no-email` for the same schedule and time.
  const log = createCliLog({ tty: false });
  [cliManifest] = (await runAll(
    { config, sink: createS3Sink(CLI_BUCKET), mailer: null, log, api: realApi },
    RUN.scheduleId,
    [RUN.scheduledTime],
    [],
  )) as [Manifest];
  cliKeys = await listKeys(CLI_BUCKET);

  // 1 s left against the default 60 s margin: every page with a next cursor ends the step.
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    logLines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  }) as typeof process.stdout.write;
  try {
    small = await runWorkflow(1_000);
  } finally {
    process.stdout.write = write;
  }
  smallKeys = await listKeys(HANDLER_BUCKET);
  smallManifest = await manifestOf(HANDLER_BUCKET, small.finalized.manifestKey);
}, 180_000);

afterAll(async () => {
  process.env = savedEnv;
  await Promise.all([sim?.close(), s3?.stop(), moto?.stop(), ses?.stop()]);
  rmSync(outdir, { recursive: true, force: true });
});

/** `npm run test:node22` runs this file on the Lambda runtime's Node and sets the major it expects. */
const NODE_MAJOR = process.versions.node.split('.')[0];

describe(`handlers end to end (Plan → Export loop → Finalize) on Node ${process.versions.node}`, () => {
  it('runs on the Node major version it was started for (22 under npm run test:node22)', () => {
    expect(NODE_MAJOR).toBe(process.env.TEST_NODE_MAJOR ?? NODE_MAJOR);
  });

  it('continues the paged reports over several steps, with payloads far below the Step Functions limit', (ctx) => {
    needMoto(ctx);
    const total = Object.values(small.continues).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(2);
    expect(small.continues.posts ?? 0).toBeGreaterThanOrEqual(2);
    expect(small.largestPayload).toBeLessThan(PAYLOAD_LIMIT / 4);
    // each step returned its own counts (what the metrics publish): summed, they are the report's
    for (const o of small.outcomes) {
      const id = `${o.window?.end}/${o.manifest.reportId}`;
      expect(small.steps[id], id).toMatchObject({ pages: o.manifest.pages, rows: o.manifest.rowCount });
    }
  });

  it('runs the Distributed Map over windows × reports: tasks and results through S3, week one restated', async (ctx) => {
    needMoto(ctx);
    expect(small.plan.taskCount).toBe(8);
    expect(small.plan.lookback.map((l) => l.window)).toEqual([
      { start: '2026-11-09', end: '2026-11-15', timezone: 'Europe/Berlin' },
    ]);
    expect(small.observed.mapItems).toEqual([8]);
    expect([...small.tasks].sort()).toEqual(
      ['2026-11-15', '2026-11-22'].flatMap((end) =>
        ['campaigns', 'creators', 'platforms', 'posts'].map((r) => `${end}/${r}`),
      ),
    );
    expect(smallManifest.restated?.map((w) => [w.window.end, w.reports.map((r) => r.status)])).toEqual([
      ['2026-11-15', ['succeeded', 'succeeded', 'succeeded', 'succeeded']],
    ]);
    expect(smallManifest.restated).toEqual(cliManifest.restated?.map((w) => ({ ...w })));
    // both weeks' partitions, as `run` writes them; the workflow's scratch objects are gone
    expect(smallKeys.filter((k) => k.includes('dt=2026-11-15/_SUCCESS'))).toHaveLength(8);
    expect(smallKeys.filter((k) => k.includes('/_workflow/'))).toEqual([]);
    expect(small.observed.largestState).toBeLessThan(PAYLOAD_LIMIT / 4);
  });

  it('writes the same rows as `report-exporter run`, split into more parts', async (ctx) => {
    needMoto(ctx);
    expect(smallManifest.status).toBe('succeeded');
    expect(smallManifest.window).toEqual(cliManifest.window);
    expect(smallKeys.filter(notPart)).toEqual(cliKeys.filter(notPart));
    for (const [i, r] of smallManifest.reports.entries()) {
      const c = cliManifest.reports[i];
      expect(r.reportId).toBe(c?.reportId);
      expect(r.rowCount).toBe(c?.rowCount);
      expect(r.totals).toEqual(c?.totals);
      expect(r.columns).toEqual(c?.columns);
      expect(await csvRows(HANDLER_BUCKET, smallKeys, r.reportId)).toEqual(
        await csvRows(CLI_BUCKET, cliKeys, r.reportId),
      );
      const rows = (m: typeof r, f: string) =>
        m.files.filter((x) => x.format === f).reduce((n, x) => n + x.rows, 0);
      expect(rows(r, 'parquet')).toBe(c?.rowCount);
    }
    const posts = smallManifest.reports.find((r) => r.reportId === 'posts');
    expect(posts?.files.filter((f) => f.format === 'csv').length).toBe((small.continues.posts ?? 0) + 1);
  });

  it('creates every Glue table at the first run, equal to the files, with partition projection over the format folder', async (ctx) => {
    needMoto(ctx);
    const glue = new GlueClient({});
    const { TableList = [] } = await glue.send(new GetTablesCommand({ DatabaseName: GLUE_DB }));
    // only this run's schedule ran: its reports' tables, and no other
    expect(TableList.map((t) => t.Name).sort()).toEqual(
      smallManifest.reports.map((r) => `weekly_campaigns__${r.reportId.replace(/-/g, '_')}__parquet`).sort(),
    );
    for (const t of TableList) {
      const report = smallManifest.reports.find(
        (r) => t.Name === `weekly_campaigns__${r.reportId.replace(/-/g, '_')}__parquet`,
      );
      if (!report) throw new Error(`no report for table ${t.Name}`);
      const folder = `s3://${HANDLER_BUCKET}/exports/weekly-campaigns/${report.reportId}/parquet/`;
      expect(t.StorageDescriptor?.Location).toBe(folder);
      expect(t.PartitionKeys).toEqual([{ Name: 'dt', Type: 'string' }]);
      expect(t.Parameters).toMatchObject({
        'projection.enabled': 'true',
        'projection.dt.type': 'date',
        'storage.location.template': `${folder}dt=\${dt}/`,
      });
      const parts = report.files.filter((f) => f.format === 'parquet');
      const fileColumns = await Promise.all(parts.map((f) => parquetColumns(HANDLER_BUCKET, f.key)));
      const widest = fileColumns.reduce((a, b) => (b.length > a.length ? b : a), []);
      // the table is the model — the widest file's columns, in file order — and every file's columns
      // are a prefix of it
      const columns = (t.StorageDescriptor?.Columns ?? []).map((c) => `${c.Name}:${c.Type}`);
      expect(columns, t.Name).toEqual(widest);
      for (const cols of fileColumns) expect(columns.slice(0, cols.length)).toEqual(cols);
    }
  });

  it('writes exactly the files of `report-exporter run` when the budget is ample (re-run replaces the partition)', async (ctx) => {
    needMoto(ctx);
    const ample = await runWorkflow(15 * 60_000);
    expect(ample.continues).toEqual({});
    const keys = await listKeys(HANDLER_BUCKET);
    expect(keys).toEqual(cliKeys);
    const m = await manifestOf(HANDLER_BUCKET, ample.finalized.manifestKey);
    const files = (x: Manifest) => x.reports.flatMap((r) => r.files.map((f) => [f.key, f.rows, f.sha256]));
    expect(files(m)).toEqual(files(cliManifest));
  });

  it("sends the stakeholders' and the operators' summary through SES and announces the manifest on EventBridge", async (ctx) => {
    needMoto(ctx);
    expect(small.finalized).toMatchObject({
      status: 'succeeded',
      emailed: 2,
      manifestLocation: `s3://${HANDLER_BUCKET}/exports/weekly-campaigns/_manifests/dt=2026-11-22/manifest.json`,
    });
    const store = (await (await fetch(`${ses.endpoint}/store`)).json()) as {
      emails: { subject: string; destination: { to: string[] } }[];
    };
    // Other runs of this file may have sent to the same store: look for this run's two messages.
    expect(store.emails.map((e) => [e.subject, e.destination.to])).toEqual(
      expect.arrayContaining([
        ['Weekly campaign performance: 2026-11-16 – 2026-11-22', ['brand-team@example.com']],
        ['Weekly campaign performance: 2026-11-16 – 2026-11-22 (run details)', ['data-team@example.com']],
      ]),
    );

    const { Messages = [] } = await sqs<{ Messages?: { Body: string }[] }>('ReceiveMessage', {
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
    });
    const event = JSON.parse(Messages[0]?.Body ?? '{}') as {
      'detail-type': string;
      source: string;
      detail: unknown;
    };
    expect(event['detail-type']).toBe('Report Export Completed');
    expect(event.source).toBe('report-exporter');
    expect(event.detail).toMatchObject({
      scheduleId: 'weekly-campaigns',
      status: 'succeeded',
      manifest: { bucket: HANDLER_BUCKET, key: small.finalized.manifestKey },
      restated: [
        {
          window: { start: '2026-11-09', end: '2026-11-15' },
          manifest: {
            bucket: HANDLER_BUCKET,
            key: 'exports/weekly-campaigns/_manifests/dt=2026-11-15/manifest.json',
          },
          reports: ['campaigns', 'creators', 'posts', 'platforms'],
          failed: [],
        },
      ],
    });
  });

  it("turns an Export step that throws into a failed manifest row (the Map's Catch) and a partial run", async (ctx) => {
    needMoto(ctx);
    const failing: Handlers = {
      ...handlers,
      export: async (input, context) => {
        const { task } = input as { task: { reportId: string } };
        if (task.reportId === 'creators') throw new Error('Task timed out after 900.00 seconds');
        return handlers.export(input, context);
      },
    };
    const run = await runWorkflow(15 * 60_000, failing);
    expect(run.finalized.status).toBe('partial');
    const record = await manifestOf(HANDLER_BUCKET, run.finalized.runRecordKey);
    expect(record.reports.map((r) => [r.reportId, r.status])).toEqual([
      ['campaigns', 'succeeded'],
      ['creators', 'failed'],
      ['posts', 'succeeded'],
      ['platforms', 'succeeded'],
    ]);
    expect(record.reports[1]).toMatchObject({
      route: 'creators/performance',
      error: 'Error: Task timed out after 900.00 seconds',
      files: [],
    });
    // The window's manifest keeps the entry of the partition that is still there (an earlier run's).
    const m = await manifestOf(HANDLER_BUCKET, run.finalized.manifestKey);
    expect(m.reports.map((r) => [r.reportId, r.status])).toEqual(
      record.reports.map((r) => [r.reportId, 'succeeded']),
    );
  });

  it('when only the email fails: announces the returned manifest, reads no manifest back, finishes, then fails the execution', async (ctx) => {
    needMoto(ctx);
    await drainEvents(); // the events of the runs above
    // S3 reads and SES sends in the order the handlers make them; SES refuses every message.
    const calls: string[] = [];
    const s3Send = S3Client.prototype.send;
    const reads = vi.spyOn(S3Client.prototype, 'send').mockImplementation(function (
      this: S3Client,
      ...args: Parameters<typeof s3Send>
    ) {
      const [command] = args;
      if (command instanceof GetObjectCommand) calls.push(`get ${command.input.Key}`);
      return s3Send.apply(this, args);
    } as typeof s3Send);
    const refused = vi.spyOn(SESv2Client.prototype, 'send').mockImplementation((() => {
      calls.push('ses');
      return Promise.reject(
        Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' }),
      );
    }) as typeof SESv2Client.prototype.send);
    try {
      await expect(runWorkflow(15 * 60_000)).rejects.toThrow(
        /the summary email was not sent: .*MessageRejected/,
      );
    } finally {
      reads.mockRestore();
      refused.mockRestore();
    }
    const afterEmail = calls.slice(calls.indexOf('ses'));
    expect(afterEmail[0]).toBe('ses');
    expect(afterEmail.filter((c) => c.includes('/_manifests/'))).toEqual([]);
    expect(calls.filter((c) => c.includes('/_manifests/')).length).toBeGreaterThan(0); // the spy saw reads

    // The event is this run's, from the manifest finalizeRun returned.
    const events = await drainEvents();
    expect(events).toHaveLength(1);
    const detail = (events[0] as { detail: { runId: string } }).detail;
    const key = 'exports/weekly-campaigns/_manifests/dt=2026-11-22/manifest.json';
    const record = await manifestOf(
      HANDLER_BUCKET,
      key.replace('manifest.json', `runs/${detail.runId}.json`),
    );
    expect(events[0]).toMatchObject({
      'detail-type': 'Report Export Completed',
      detail: { status: record.status, manifest: { key }, reports: { succeeded: 4, failed: 0 } },
    });
    // Everything after the email still ran before the execution failed: the scratch objects are gone.
    expect((await listKeys(HANDLER_BUCKET, true)).filter((k) => k.includes('/_workflow/'))).toEqual([]);
  });

  it('logs structured JSON with the run keys, and never the client secret', (ctx) => {
    needMoto(ctx);
    const entries = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries).toContainEqual(
      expect.objectContaining({
        level: 'INFO',
        message: 'export paused for continuation',
        service: 'report-exporter',
        scheduleId: 'weekly-campaigns',
        reportId: 'posts',
        runId: small.plan.runId,
      }),
    );
    for (const line of logLines) expect(line).not.toContain(sim.credentials.clientSecret);
  });

  it('does the same from the bundles `cdk synth` deploys (ESM, the config file in each bundle, fetch-based HTTP, bundled SDK)', async (ctx) => {
    needMoto(ctx);
    const configFile = process.env.REPORT_EXPORTER_CONFIG_FILE;
    // each bundle reads the config file bundled beside it
    delete process.env.REPORT_EXPORTER_CONFIG_FILE;
    try {
      const template = synthesized.toJSON() as {
        Resources: Record<
          string,
          { Type: string; Properties: { Description?: string; Code?: { S3Key: string } } }
        >;
      };
      const bundle = async (what: string) => {
        const fn = Object.values(template.Resources).find(
          (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description?.includes(what),
        );
        const dir = `asset.${String(fn?.Properties.Code?.S3Key).replace(/\.zip$/, '')}`;
        expect(JSON.parse(readFileSync(join(outdir, dir, BUNDLED_CONFIG_FILE), 'utf8'))).toEqual(config);
        return (await import(pathToFileURL(join(outdir, dir, 'index.mjs')).href)) as { handler: never };
      };
      const bundled: Handlers = {
        plan: (await bundle('plan a run')).handler,
        export: (await bundle('export one report')).handler,
        finalize: (await bundle('manifest, summary email')).handler,
      };
      process.env.BUCKET_NAME = BUNDLE_BUCKET; // read by each bundle's own sink on first use
      // the Export bundle re-entered as its own encoder worker (the pool has none by default on ≤ 2
      // cores, where the handlers from source above encode on their own thread)
      process.env.REPORT_EXPORTER_ENCODER_WORKERS = '1';
      await s3.createBucket(BUNDLE_BUCKET);
      const run = await runWorkflow(1_000, bundled);
      expect(run.continues.posts ?? 0).toBeGreaterThanOrEqual(2);
      const keys = await listKeys(BUNDLE_BUCKET);
      expect(keys.filter(notPart)).toEqual(cliKeys.filter(notPart));
      const m = await manifestOf(BUNDLE_BUCKET, run.finalized.manifestKey);
      expect(m.reports.map((r) => [r.reportId, r.status, r.rowCount, r.totals])).toEqual(
        cliManifest.reports.map((r) => [r.reportId, r.status, r.rowCount, r.totals]),
      );
      for (const r of m.reports) {
        expect(await csvRows(BUNDLE_BUCKET, keys, r.reportId)).toEqual(
          await csvRows(CLI_BUCKET, cliKeys, r.reportId),
        );
      }
    } finally {
      delete process.env.REPORT_EXPORTER_ENCODER_WORKERS;
      process.env.BUCKET_NAME = HANDLER_BUCKET;
      process.env.REPORT_EXPORTER_CONFIG_FILE = configFile;
    }
  }, 120_000);

  it('never writes the client secret into the bucket', async (ctx) => {
    needMoto(ctx);
    for (const k of (await listKeys(HANDLER_BUCKET, true)).filter((k) => !k.endsWith('.parquet'))) {
      expect(await getText(HANDLER_BUCKET, k)).not.toContain(sim.credentials.clientSecret);
    }
  });
});
