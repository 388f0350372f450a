/**
 * One Lambda's share of a run, in its own process with one role's credentials (as each Lambda has its
 * own role), for the least-privilege test (not a test file):
 *
 *   node --import tsx test/deploy/role-run.ts plan
 *   node --import tsx test/deploy/role-run.ts export  OUT.json
 *   node --import tsx test/deploy/role-run.ts finalize IN.json OUT.json
 *
 * `plan` runs the Plan handler: the run's credentials preflight (the secret read, one token request,
 * which must be accepted) and its task list to S3. `export` plans the run (its task list to S3), exports every report step by step (secret read, S3 writes, listing and
 * removal of stale parts), then streams a 17 MiB object through the S3 sink (a multipart upload), abandons
 * a 9 MiB one (AbortMultipartUpload) and deletes the first (DeleteObjects). `finalize` runs the Finalize
 * handler on the export's result (previous manifest, CSV attachments, manifest, SES, EventBridge).
 * Exit code 0 only when every step succeeded; the failure is printed on stderr.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createS3Sink } from '#adapters/s3-sink';
import type { Config } from '#core/config/schema';
import { mapResultsPrefix } from '#core/export/keys';
import type { PlannedRun } from '#core/run/map-results';
import { planRun } from '#core/run/plan';
import type { ExportStepResult, ReportOutcome } from '#core/run/types';
import { writeBundledConfig } from '../../infra/stacks/exporter-stack';

const [phase, first, second] = process.argv.slice(2);
const config = JSON.parse(String(process.env.LP_CONFIG)) as Config;
// the config file the CDK app bundles, written by the same function
process.env.REPORT_EXPORTER_CONFIG_FILE = writeBundledConfig(
  config,
  mkdtempSync(join(tmpdir(), 'lp-config-')),
);
const context = { getRemainingTimeInMillis: () => 15 * 60_000, functionName: phase, awsRequestId: 'lp' };
type Handler<T> = (event: unknown, ctx: typeof context) => Promise<T>;

async function planPhase(): Promise<void> {
  const plan = await ((await import('#handlers/plan')).handler as Handler<PlannedRun>)(
    { scheduleId: config.schedules[0]?.id, scheduledTime: '2026-11-23T07:00:00Z' },
    context,
  );
  // a preflight that could not read the secret or ask for a token says why, and fails the phase
  if (plan.credentials?.status !== 'accepted')
    throw new Error(`the credentials preflight: ${JSON.stringify(plan.credentials)}`);
  if (plan.taskCount < 1) throw new Error('Plan wrote no task');
}

async function exportPhase(out: string): Promise<void> {
  const plan = await ((await import('#handlers/plan')).handler as Handler<PlannedRun>)(
    { scheduleId: config.schedules[0]?.id, scheduledTime: '2026-11-23T07:00:00Z' },
    context,
  );
  const step = (await import('#handlers/export')).handler as Handler<ExportStepResult>;
  const outcomes: ReportOutcome[] = [];
  const sink = createS3Sink(String(process.env.BUCKET_NAME));
  // the task list Plan wrote to S3 (the Distributed Map reads it with the state machine's role; the
  // Export role may not read objects, so the same tasks are planned here)
  const tasks = planRun(
    config,
    { scheduleId: plan.scheduleId, scheduledTime: plan.scheduledTime },
    {
      now: () => new Date(plan.startedAt),
      newRunId: () => plan.runId,
    },
  ).tasks;
  if (tasks.length !== plan.taskCount)
    throw new Error(`planned ${tasks.length} tasks, Plan wrote ${plan.taskCount}`);
  const children: { Input: string; Output: string; Status: string }[] = [];
  for (const task of tasks) {
    let result = await step({ task }, context);
    while (result.status === 'continue')
      result = await step({ task, checkpoint: result.checkpoint }, context);
    outcomes.push(result.outcome);
    children.push({
      Input: JSON.stringify({ task }),
      Output: JSON.stringify(result.outcome),
      Status: 'SUCCEEDED',
    });
  }
  // the Map's results as its ResultWriter lays them out (written here in Step Functions' place)
  const results = `${mapResultsPrefix(config.output.prefix)}/lp-map-run`;
  const manifestKey = `${results}/manifest.json`;
  // Finalize removes these, and every finalize run needs them: they go along to the finalize phase
  const scratch: Record<string, string> = {
    [plan.items.key]: JSON.stringify(tasks),
    [`${results}/SUCCEEDED_0.json`]: JSON.stringify(children),
    [manifestKey]: JSON.stringify({
      ResultFiles: { SUCCEEDED: [{ Key: `${results}/SUCCEEDED_0.json`, Size: 0 }] },
    }),
  };
  const failed = outcomes.filter((o) => o.manifest.status !== 'succeeded');
  if (failed.length > 0) throw new Error(`reports failed: ${JSON.stringify(failed.map((o) => o.manifest))}`);

  const key = `${config.output.prefix}${plan.window.end}/least-privilege/multipart.bin`;
  const chunk = new Uint8Array(1024 * 1024).fill(7);
  const big = sink.openWriter(key, 'application/octet-stream');
  for (let i = 0; i < 17; i++) await big.write(chunk);
  const written = await big.close();
  if (written.bytes !== 17 * chunk.byteLength) throw new Error(`multipart wrote ${written.bytes} bytes`);
  const abandoned = sink.openWriter(`${key}.abandoned`, 'application/octet-stream');
  for (let i = 0; i < 9; i++) await abandoned.write(chunk);
  await abandoned.abort();
  await sink.deleteObjects([key]);
  writeFileSync(
    out,
    JSON.stringify({
      plan,
      results: { ResultWriterDetails: { Bucket: process.env.BUCKET_NAME, Key: manifestKey } },
      scratch,
    }),
  );
}

async function finalizePhase(input: string, out: string): Promise<void> {
  const finalize = (await import('#handlers/finalize')).handler as Handler<{
    status: string;
    emailed: number;
  }>;
  const { scratch, ...event } = JSON.parse(readFileSync(input, 'utf8')) as {
    scratch: Record<string, string>;
  };
  // the workflow's objects (task list, Map results) as Plan and Step Functions leave them; a previous
  // finalize run removed them
  const sink = createS3Sink(String(process.env.BUCKET_NAME));
  for (const [key, body] of Object.entries(scratch)) await sink.putObject(key, body, 'application/json');
  const result = await finalize(event, context);
  // the stakeholders' summary, and the operators' detail where the config names operators
  if (result.status !== 'succeeded' || result.emailed < 1)
    throw new Error(`finalize: ${JSON.stringify(result)}`);
  writeFileSync(out, JSON.stringify(result));
}

try {
  if (phase === 'plan') await planPhase();
  else if (phase === 'export') await exportPhase(String(first));
  else await finalizePhase(String(first), String(second));
} catch (err: unknown) {
  process.stderr.write(
    `${phase} failed: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n`,
  );
  process.exitCode = 1;
}
