/**
 * The CLI's email defaults, as a user runs them: `run` and `backfill` never reach SES without
 * `--send-email` (an HTTP server stands where SES would be and counts every request); when the email
 * fails the result lines are still printed, and the exit code is 1 with the reason.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '#simulator/server';
import { freePort } from '../support/ports';
import { apiCredentials, backfillArgs, type CliResult, localAws, runArgs, runCli } from '../support/run-cli';
import { startSes } from '../support/servers';

let sim: Simulator;
let dir: string;
let configPath: string;
let ses: Server;
let sesEndpoint: string;
const sesRequests: string[] = [];
const AT = '2026-11-23T06:00:00Z';
const ROOT = join(import.meta.dirname, '..', '..');

const config = (baseUrl: string) => `
api: { baseUrl: ${baseUrl}, credentialsSecret: test/reporting }
output: { prefix: exports/, formats: [csv] }
email: { from: Reports <reports@example.com>, operators: [ops@example.com] }
schedules:
  - id: daily
    cron: "0 6 * * ? *"
    window: yesterday
    recipients: [team@example.com]
    reports:
      - id: platforms
        route: platforms/performance
        metrics: [likes]
        summary: { kpis: [likes], topBy: likes }
`;

/** `report-exporter ARGS -c <config>` with SES pointed at the refusing server (one attempt). */
function cli(args: readonly string[]): Promise<CliResult> {
  return runCli([...args, '-c', configPath], {
    cwd: dir,
    env: {
      ...apiCredentials(sim.credentials),
      ...localAws({ AWS_ENDPOINT_URL_SESV2: sesEndpoint }),
      AWS_MAX_ATTEMPTS: '1',
    },
  });
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 5 });
  dir = await mkdtemp(join(tmpdir(), 'cli-email-'));
  configPath = join(dir, 'reports.yaml');
  await writeFile(configPath, config(sim.baseUrl));
  // Where SES would be: records every request and refuses it, as a broken SES would.
  ses = createServer((req, res) => {
    sesRequests.push(`${req.method} ${req.url}`);
    res.writeHead(400, { 'content-type': 'application/json', 'x-amzn-errortype': 'MessageRejected' });
    res.end(JSON.stringify({ message: 'Email address is not verified.' }));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => ses.listen(port, '127.0.0.1', resolve));
  sesEndpoint = `http://127.0.0.1:${port}`;
}, 30_000);

afterAll(async () => {
  await sim?.close();
  await new Promise((resolve) => ses?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('CLI email defaults', () => {
  it('run --out without --send-email makes no SES call and writes no email', async () => {
    const r = await cli(runArgs('daily', AT, '--out', 'a'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('daily 2026-11-22..2026-11-22: succeeded');
    expect(sesRequests).toEqual([]);
    const written = await readdir(join(dir, 'a'));
    expect(written).toContain('exports');
    expect(written.filter((f) => /outbox|\.eml$|\.html$/.test(f))).toEqual([]);
  });

  it('backfill without --send-email makes no SES call for any window', async () => {
    const r = await cli(backfillArgs('daily', '2026-11-01', '2026-11-03', '--out', 'b'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/: succeeded/g)).toHaveLength(3);
    expect(sesRequests).toEqual([]);
  });

  it('run --send-email that SES refuses: result lines still printed, exit 1 with the reason', async () => {
    const r = await cli(runArgs('daily', AT, '--out', 'c', '--send-email'));
    expect(sesRequests.length).toBeGreaterThan(0);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('daily 2026-11-22..2026-11-22: succeeded');
    expect(r.stdout).toMatch(/platforms\s+\d+ rows, 1 files/);
    expect(r.stdout).toContain('manifest:');
    expect(r.stderr).toMatch(/email not sent: daily 2026-11-22\.\.2026-11-22: .*MessageRejected/);
  });

  it('run --send-email that SES accepts prints each message: recipients, audience and message id', async () => {
    const local = await startSes(ROOT);
    try {
      const r = await runCli([...runArgs('daily', AT, '--out', 'sent', '--send-email'), '-c', configPath], {
        cwd: dir,
        env: { ...apiCredentials(sim.credentials), ...localAws({ AWS_ENDPOINT_URL_SESV2: local.endpoint }) },
      });
      expect(r.code, r.stderr).toBe(0);
      const lines = [...r.stdout.matchAll(/^email sent to (.+) \((\w+)\): message id (\S+)$/gm)];
      expect(lines.map((m) => [m[1], m[2]])).toEqual([
        ['team@example.com', 'stakeholders'],
        ['ops@example.com', 'operators'],
      ]);
      const store = (await (await fetch(`${local.endpoint}/store`)).json()) as {
        emails: { messageId?: string }[];
      };
      const ids = store.emails.map((e) => e.messageId);
      for (const m of lines) expect(ids).toContain(m[3]);
    } finally {
      await local.stop();
    }
  });

  it('run --email-dir names each file it wrote and for whom', async () => {
    const r = await cli(runArgs('daily', AT, '--out', 'files', '--email-dir', 'mail'));
    expect(r.code, r.stderr).toBe(0);
    const named = [...r.stdout.matchAll(/^email written for (.+) \((\w+)\): mail\/(\S+\.eml)$/gm)];
    expect(named.map((m) => m[1])).toEqual(['team@example.com', 'ops@example.com']);
    expect((await readdir(join(dir, 'mail'))).sort()).toEqual(expect.arrayContaining(named.map((m) => m[3])));
  });

  it('refuses --send-email together with --email-dir', async () => {
    const r = await cli(['run', '--schedule', 'daily', '--out', 'd', '--send-email', '--email-dir', 'm']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--email-dir and --send-email cannot be used together/);
  });
});
