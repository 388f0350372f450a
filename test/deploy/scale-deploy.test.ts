/**
 * A 200-report config (20 schedules × 10 reports, at 4 distinct hours) deployed into moto_server with
 * `cdk deploy`, one schedule run through the deployed workflow's definition (the handlers in-process
 * against the emulator's S3, Secrets Manager and Glue, the built-in API simulator as the API), then a
 * changed config deployed again: every Glue table the run created keeps every column. The Glue tables
 * are the workflow's, so a deploy never touches them (issues 28 and 22).
 *
 * moto runs no Lambda code and its Scheduler never fires: the schedule's firing is its deployed
 * input (read back from Scheduler), fanned out as the dispatcher's Map does.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CloudFormationClient,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import { GetTablesCommand, GlueClient } from '@aws-sdk/client-glue';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '#core/config/schema';
import { type Simulator, startSimulator } from '#simulator/server';
import { type Definition, type Invoke, runStates } from '../handlers/asl';
import { definitionOf } from '../infra/synth';
import { largeConfig } from '../support/large-config';
import { hasMoto, needMoto } from '../support/servers';
import { ACCOUNT, type Emulator, REGION, ROOT, startEmulator, tracebacks } from './emulator';

const CDK = join(ROOT, 'node_modules', '.bin', 'cdk');
const STACK = 'ReportExporterScale';
const SCHEDULED_TIME = '2026-11-23T07:00:00Z';
const work = mkdtempSync(join(tmpdir(), 'scale-deploy-'));
const outdirs: string[] = [];

let moto: Emulator;
let sim: Simulator;
let config: Config;
let template: Record<string, unknown> & { Resources: Record<string, { Type: string }> };
let physical: Record<string, string> = {};
let statuses: Record<string, string> = {};
let outputs: Record<string, string> = {};
let schedulerInput: { scheduleIds: string[]; scheduledTime: string } | undefined;
let finalized: { status: string; manifestKey: string } | undefined;
let tablesAfterRun: Record<string, string[]> = {};
let tablesAfterRedeploy: Record<string, string[]> = {};
let redeployStatus = '';
const seconds: Record<string, number> = {};

function cdk(args: string[], cwd: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(CDK, [...args, '--no-notices', '--require-approval', 'never'], {
      cwd,
      env: moto.env(),
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(Math.round((performance.now() - started) / 100) / 10)
        : reject(new Error(`cdk ${args[0]} failed (${code}):\n${output.slice(-4000)}`)),
    );
  });
}

/** Synthesizes `cfg` into a fresh cloud assembly and deploys it; returns the assembly folder. */
async function deploy(cfg: Config, step: string): Promise<string> {
  const file = join(work, `${step}.json`);
  writeFileSync(file, JSON.stringify(cfg));
  const outdir = join(ROOT, 'cdk.out', `scale-${step}-${process.pid}`);
  outdirs.push(outdir);
  seconds[`${step}Synth`] = await cdk(
    ['synth', STACK, '-q', '-c', `config=${file}`, '-c', `stackName=${STACK}`, '-o', outdir],
    ROOT,
  );
  try {
    // --no-previous-parameters: moto's UpdateStack fails on UsePreviousValue for BootstrapVersion
    seconds[`${step}Deploy`] = await cdk(
      ['deploy', STACK, '--app', outdir, '--method=direct', '--no-previous-parameters'],
      ROOT,
    );
  } catch (err: unknown) {
    throw new Error(`${String(err)}\nemulator: ${tracebacks(moto.log()).join('\n').slice(-3000)}`);
  }
  return outdir;
}

async function glueColumns(): Promise<Record<string, string[]>> {
  const { TableList = [] } = await new GlueClient(moto.clientConfig()).send(
    new GetTablesCommand({ DatabaseName: 'report_exporter' }),
  );
  return Object.fromEntries(
    TableList.map((t) => [
      t.Name ?? '',
      (t.StorageDescriptor?.Columns ?? []).map((c) => `${c.Name}:${c.Type}`),
    ]),
  );
}

/** The deployed firing of one Scheduler schedule → the dispatcher → one workflow run of its first schedule. */
async function runOneSchedule(outdir: string): Promise<void> {
  const t = performance.now();
  const first = Object.entries(template.Resources).find(([, r]) => r.Type === 'AWS::Scheduler::Schedule');
  const deployed = await new SchedulerClient(moto.clientConfig()).send(
    new GetScheduleCommand({ Name: physical[first?.[0] ?? ''] }),
  );
  schedulerInput = JSON.parse(String(deployed.Target?.Input)) as typeof schedulerInput;
  const scheduleId = schedulerInput?.scheduleIds[0];
  const synthesized = Template.fromJSON(template);
  // the dispatcher: its Map's items and item selector applied to the firing (the interpreter has no
  // intrinsic functions for the StartExecution's name; test/infra/stack.test.ts asserts that state)
  const dispatcher = definitionOf(synthesized, 'SchedulesDispatcherStateMachine') as unknown as Definition;
  const each = dispatcher.States[dispatcher.StartAt] as { ItemsPath?: string; ItemSelector?: object };
  expect(each).toMatchObject({
    ItemsPath: '$.scheduleIds',
    ItemSelector: { 'scheduleId.$': '$$.Map.Item.Value', 'scheduledTime.$': '$.scheduledTime' },
  });
  const starts = (schedulerInput?.scheduleIds ?? []).map((id) => ({
    scheduleId: id,
    scheduledTime: SCHEDULED_TIME,
  }));
  const asset = (description: string) => {
    const fn = Object.values(template.Resources).find(
      (r) => r.Type === 'AWS::Lambda::Function' && JSON.stringify(r).includes(description),
    ) as { Properties: { Code: { S3Key: string } } } | undefined;
    return join(outdir, `asset.${String(fn?.Properties.Code.S3Key).replace(/\.zip$/, '')}`);
  };
  const envBefore = { ...process.env };
  Object.assign(process.env, moto.env(), {
    BUCKET_NAME: outputs.BucketName,
    GLUE_DATABASE: 'report_exporter',
    MAP_CONCURRENCY: '4',
    // the config file the deployed Plan bundle carries
    REPORT_EXPORTER_CONFIG_FILE: join(asset('plan a run'), 'report-exporter.config.json'),
  });
  try {
    const s3 = new S3Client({ ...moto.clientConfig(), forcePathStyle: true });
    const io = {
      getObject: async (_b: string, key: string) =>
        (await (
          await s3.send(new GetObjectCommand({ Bucket: outputs.BucketName, Key: key }))
        ).Body?.transformToString()) ?? '',
      putObject: async (_b: string, key: string, body: string) => {
        await s3.send(new PutObjectCommand({ Bucket: outputs.BucketName, Key: key, Body: body }));
      },
    };
    const context = { getRemainingTimeInMillis: () => 15 * 60_000 };
    const call = async (name: string, input: unknown) =>
      (
        (await import(`#handlers/${name}`)) as { handler: (e: unknown, c: unknown) => Promise<unknown> }
      ).handler(input, context);
    const invoke: Invoke = async (resource, input) => {
      const name = resource.includes('Plan') ? 'plan' : resource.includes('Finalize') ? 'finalize' : 'export';
      return JSON.parse(JSON.stringify(await call(name, input)));
    };
    const workflow = definitionOf(synthesized) as unknown as Definition;
    finalized = (await runStates(workflow, starts[0], invoke, {}, { io })) as typeof finalized;
    expect((starts[0] as { scheduleId: string }).scheduleId).toBe(scheduleId);
  } finally {
    process.env = envBefore;
  }
  seconds.run = Math.round((performance.now() - t) / 100) / 10;
}

async function readStack(): Promise<void> {
  const cfn = new CloudFormationClient(moto.clientConfig());
  const { StackResources = [] } = await cfn.send(new DescribeStackResourcesCommand({ StackName: STACK }));
  physical = Object.fromEntries(StackResources.map((r) => [r.LogicalResourceId, r.PhysicalResourceId]));
  statuses = Object.fromEntries(StackResources.map((r) => [r.LogicalResourceId, r.ResourceStatus]));
  const { Stacks = [] } = await cfn.send(new DescribeStacksCommand({ StackName: STACK }));
  outputs = Object.fromEntries((Stacks[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
  redeployStatus = Stacks[0]?.StackStatus ?? '';
}

beforeAll(async () => {
  if (!hasMoto) return;
  moto = await startEmulator();
  sim = await startSimulator({ seed: 11 });
  config = largeConfig({
    schedules: 20,
    reports: 10,
    hours: 4,
    timezones: 1,
    email: false,
    baseUrl: sim.baseUrl,
  });
  const scratch = mkdtempSync(join(tmpdir(), 'cdk-bootstrap-'));
  seconds.bootstrap = await cdk(['bootstrap', `aws://${ACCOUNT}/${REGION}`], scratch);
  rmSync(scratch, { recursive: true, force: true });
  const outdir = await deploy(config, 'first');
  template = JSON.parse(readFileSync(join(outdir, `${STACK}.template.json`), 'utf8')) as typeof template;
  await readStack();
  await new SecretsManagerClient(moto.clientConfig()).send(
    new CreateSecretCommand({
      Name: config.api.credentialsSecret,
      SecretString: JSON.stringify(sim.credentials),
    }),
  );
  await runOneSchedule(outdir);
  tablesAfterRun = await glueColumns();
  // a config change (a schedule's description) redeploys the functions' code
  await deploy(
    largeConfig({
      schedules: 20,
      reports: 10,
      hours: 4,
      timezones: 1,
      email: false,
      baseUrl: sim.baseUrl,
      note: 'changed',
    }),
    'second',
  );
  await readStack();
  tablesAfterRedeploy = await glueColumns();
  process.stdout.write(`scale deploy timings (s): ${JSON.stringify(seconds)}\n`);
}, 900_000);

afterAll(async () => {
  await moto?.stop();
  await sim?.close();
  for (const d of outdirs) rmSync(d, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('a 200-report config in one stack, in the emulator', () => {
  it('deploys every resource: 4 Scheduler schedules for 20 schedules at 4 hours, no Glue table, no traceback', (ctx) => {
    needMoto(ctx);
    expect(config.schedules.flatMap((s) => s.reports)).toHaveLength(200);
    const ids = Object.keys(template.Resources);
    expect(ids.filter((id) => !String(statuses[id]).endsWith('_COMPLETE'))).toEqual([]);
    const types = Object.values(template.Resources).map((r) => r.Type);
    expect(types.filter((t) => t === 'AWS::Scheduler::Schedule')).toHaveLength(4);
    expect(types.filter((t) => t === 'AWS::Glue::Table')).toHaveLength(0);
    expect(tracebacks(moto.log())).toEqual([]);
  });

  it("runs one schedule from its Scheduler schedule's deployed input: every report succeeds and gets its Glue table", (ctx) => {
    needMoto(ctx);
    expect(schedulerInput?.scheduleIds).toHaveLength(5);
    expect(finalized?.status).toBe('succeeded');
    const scheduleId = String(schedulerInput?.scheduleIds[0]).replace(/-/g, '_');
    const tables = Object.keys(tablesAfterRun).filter((t) => t.startsWith(`${scheduleId}__`));
    expect(tables).toHaveLength(10);
    for (const t of tables) expect(tablesAfterRun[t]?.length).toBeGreaterThan(3);
  });

  it('keeps every Glue column through a second deploy of a changed config', (ctx) => {
    needMoto(ctx);
    expect(redeployStatus).toMatch(/UPDATE_COMPLETE$/);
    expect(Object.keys(tablesAfterRun).length).toBeGreaterThan(0);
    expect(tablesAfterRedeploy).toEqual(tablesAfterRun);
  });
});
