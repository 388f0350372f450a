/**
 * Issue 23's hostile API through the deployed path: the Lambda bundles `cdk synth` produces (ESM, the
 * config file bundled beside each, fetch-based HTTP), driven by the synthesized state machine
 * (./asl.ts: Plan → Distributed Map → Export looping on `continue` → Finalize) with a time budget so
 * small that every page with a next cursor ends its Export step — against the same loopback server
 * and cases as the CLI's test (test/support/hostile-cases.ts, test/e2e/hostile-api.test.ts), with S3
 * on fauxqs, SES on aws-ses-v2-local and EventBridge on moto_server. Each case must end as it does
 * in the CLI (the report's status, the exit code its manifest implies, the message), and every form
 * of every secret must be absent from every output: the objects written to the bucket (manifest, run
 * record, files, the Map's items and results), every state's input and output, the log lines and the
 * emails. `npm run test:node22` runs this file on Node 22, the Lambda runtime's.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#core/config/load';
import type { Config } from '#core/config/schema';
import { ManifestSchema } from '#core/manifest';
import { METRIC } from '#handlers/metric-names';
import { buildApp } from '../../infra/build-app';
import { definitionOf } from '../infra/synth';
import {
  CLIENT_ID,
  HOSTILE_CASES,
  hostileConfig,
  leaks,
  needles,
  outcomeOf,
  SCHEDULE_AT,
  serveCase,
} from '../support/hostile-cases';
import { type HostileServer, startHostileServer } from '../support/hostile-server';
import { type LocalS3, startLocalS3 } from '../support/local-s3';
import { hasMoto, type LocalServer, needMoto, startMoto, startSes } from '../support/servers';
import type { Definition } from './asl';
import { type Bundles, bucketOf, bundleDirs, loadBundles, traceWorkflow } from './traced-workflow';

const ROOT = join(import.meta.dirname, '..', '..');
const BUCKET = 'hostile-exports';
const REGION = 'eu-central-1';

let server: HostileServer;
let s3: LocalS3;
let moto: LocalServer;
let ses: LocalServer;
let config: Config;
let definition: Definition;
let bundled: Bundles;
const outdir = join(ROOT, 'cdk.out', `hostile-e2e-${process.pid}`);
const savedEnv = { ...process.env };

let bucket: ReturnType<typeof bucketOf>;

/** One workflow execution for `scheduleId` (1 s left in every step: each paged report continues). */
const runWorkflow = (scheduleId: string) =>
  traceWorkflow({
    definition,
    bundles: bundled,
    bucket,
    input: { scheduleId, scheduledTime: SCHEDULE_AT },
    budgetMs: 1_000,
  });
const getText = (key: string) => bucket.getText(key);
const objectsBelow = (prefix: string) => bucket.objectsBelow(prefix);

beforeAll(async () => {
  if (!hasMoto) return;
  server = await startHostileServer({ maxHeaderSize: 4 * 1024 * 1024 });
  [s3, moto, ses] = await Promise.all([startLocalS3(), startMoto(), startSes(ROOT)]);
  config = parseConfig(hostileConfig(server.baseUrl));
  delete process.env.REPORT_EXPORTER_CONFIG_FILE; // each bundle reads the config file bundled beside it
  Object.assign(process.env, {
    AWS_REGION: REGION,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_ENDPOINT_URL_S3: s3.endpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: moto.endpoint,
    AWS_ENDPOINT_URL_EVENTBRIDGE: moto.endpoint,
    AWS_ENDPOINT_URL_SESV2: ses.endpoint,
    BUCKET_NAME: BUCKET,
    EVENT_BUS_NAME: 'default',
    MAP_CONCURRENCY: '1',
    POWERTOOLS_LOG_LEVEL: 'DEBUG',
    // the handlers' metrics are printed (EMF) and checked in the logs
    POWERTOOLS_METRICS_DISABLED: 'false',
  });
  await s3.createBucket(BUCKET);
  const template = Template.fromStack(buildApp({ config, nag: false, appProps: { outdir } }).stack);
  definition = definitionOf(template) as unknown as Definition;
  bucket = bucketOf(s3, BUCKET);
  const dirs = bundleDirs(template, outdir);
  for (const dir of Object.values(dirs)) {
    // the bundle really is the fetch-based one (no undici package inside)
    expect(readFileSync(join(dir, 'index.mjs'), 'utf8')).not.toContain('undici/lib/dispatcher');
  }
  bundled = await loadBundles(dirs);
}, 180_000);

afterAll(async () => {
  process.env = savedEnv;
  await Promise.all([server?.close(), s3?.stop(), moto?.stop(), ses?.stop()]);
  rmSync(outdir, { recursive: true, force: true });
});

describe('the deployed bundles against a hostile API', () => {
  for (const c of HOSTILE_CASES) {
    it(`${c.id}: the report ends ${c.expected.status} as in the CLI, and no secret in any output`, async (ctx) => {
      needMoto(ctx);
      const jwt = serveCase(server, c);
      Object.assign(process.env, { REPORTING_CLIENT_ID: CLIENT_ID, REPORTING_CLIENT_SECRET: c.secret });
      const requestsBefore = server.requests.length;
      const run = await runWorkflow(c.id);
      expect(run.error, String(run.error)).toBeNull();
      if (run.manifestKey === null) throw new Error('no manifest');
      const manifest = ManifestSchema.parse(JSON.parse(await getText(run.manifestKey)));
      const [report] = manifest.reports;
      if (!report) throw new Error('no report in the manifest');
      const outcome = outcomeOf(report);

      expect({ exit: outcome.exit, status: outcome.status }).toEqual({
        exit: c.expected.exit,
        status: c.expected.status,
      });
      expect(outcome.text).toContain(c.expected.message);
      if (c.expected.warning) expect(report.warnings?.map((w) => w.code)).toContain(c.expected.warning);
      const objects = await objectsBelow(`exports/${c.id}/`);
      if (c.expected.csvContains) {
        const csv = Object.entries(objects).find(([k]) => k.endsWith('.csv'))?.[1];
        expect(csv).toContain(c.expected.csvContains);
      }
      const store = (await (await fetch(`${ses.endpoint}/store`)).json()) as {
        emails: Array<{ subject: string }>;
      };
      const emails = store.emails.filter((e) => e.subject.includes(c.id)).map((e) => JSON.stringify(e));
      expect(emails.length).toBeGreaterThan(0);
      if (c.expected.warning) {
        const line = `${c.expected.warning} (count 1): ${c.expected.message.slice(0, 60)}`;
        expect(emails.filter((e) => e.includes(line))).not.toEqual([]);
      }
      // the metric the alarms read: one warning on a partial report, one failed report otherwise
      const metric = c.expected.status === 'failed' ? METRIC.reportsFailed : METRIC.reportWarnings;
      if (c.expected.exit !== 0) expect(run.texts.logs).toContain(`"${metric}":1`);
      // the window's lease was released (a re-run need not wait for it to expire)
      expect(Object.keys(objects).filter((k) => k.endsWith('_lease.json'))).toEqual([]);
      if (c.expected.message !== '') expect(run.texts.logs).toContain(c.expected.message.slice(0, 60));
      // paging ended, across continuations too: a handful of requests and steps
      expect(server.requests.length - requestsBefore).toBeLessThan(20);
      expect(run.exportSteps).toBeLessThan(10);
      // the looping server was caught across continuations: one page per Export step
      if (c.id === 'ignored-cursor') expect(run.exportSteps).toBe(4);
      const texts = { ...run.texts, ...objects, emails: JSON.stringify(store) };
      expect(leaks(texts, needles(c.secret, jwt))).toEqual([]);
    });
  }
});
