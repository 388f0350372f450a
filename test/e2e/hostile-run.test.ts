/**
 * Issue 23's operator habits and hostile schedules through the CLI (`report-exporter run` as a child
 * process against a loopback API): a token 403 with four reports at concurrency 4, a duplicated
 * `--report`, 500 reports in one schedule, metric and report names from Object's prototype, half-set
 * credentials, no AWS region, a secret missing or half-set in Secrets Manager (moto_server), a config
 * saved as UTF-16, an `--out` that cannot be written. Each
 * asserts the exit code, the message, the manifest's state (or that none was written) and scans
 * every output for the client secret. test/handlers/hostile-run-workflow.e2e.test.ts runs those that
 * apply to the Lambda through the deployed bundles.
 */
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateSecretCommand,
  DeleteSecretCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Manifest, ManifestSchema } from '#core/manifest';
import { leaks, needles } from '../support/hostile-cases';
import {
  AT,
  CLIENT_ID,
  forbidTokens,
  PROTO,
  PROTO_TOTALS,
  requestsSince,
  SECRET,
  SECRET_HALF_MESSAGE,
  SECRET_MISSING_MESSAGE,
  schedulesConfig,
  serveRows,
  TOKEN_403_MESSAGE,
} from '../support/hostile-schedules';
import { type HostileServer, startHostileServer } from '../support/hostile-server';
import { readOutputs } from '../support/outputs';
import { apiCredentials, runArgs, runCli } from '../support/run-cli';
import { needMoto, startMoto } from '../support/servers';

const CREDS = apiCredentials({ clientId: CLIENT_ID, clientSecret: SECRET });

let server: HostileServer;
let dir: string;

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly texts: Record<string, string>;
  readonly manifest: Manifest | null;
  readonly requests: { token: number; data: number };
}

/** `run --schedule ID` into its own folders; everything it wrote, its manifest, the requests it made. */
async function run(
  name: string,
  schedule: string,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = CREDS,
  cfg = 'reports.yaml',
) {
  const out = join(dir, `${name}-out`);
  const mail = join(dir, `${name}-mail`);
  const before = server.requests.length;
  const r = await runCli(
    runArgs(schedule, AT, '--out', out, '--email-dir', mail, '-c', join(dir, cfg), ...extra),
    {
      env,
      timeoutMs: 120_000,
    },
  );
  const texts: Record<string, string> = {
    stdout: r.stdout,
    stderr: r.stderr,
    ...(await readOutputs([out, mail])),
  };
  const path = Object.keys(texts).find((k) => k.endsWith('_manifests/dt=2026-11-22/manifest.json'));
  const ran: Ran = {
    ...r,
    texts,
    manifest: path ? ManifestSchema.parse(JSON.parse(texts[path] ?? '')) : null,
    requests: requestsSince(server, before),
  };
  expect(leaks(texts, needles(SECRET, undefined))).toEqual([]);
  return ran;
}

beforeAll(async () => {
  server = await startHostileServer({ issueTokens: true });
  dir = await mkdtemp(join(tmpdir(), 'hostile-run-'));
  await writeFile(join(dir, 'reports.yaml'), schedulesConfig(server.baseUrl));
  await writeFile(join(dir, 'big.yaml'), schedulesConfig(server.baseUrl, true));
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('report-exporter run with hostile schedules and an operator’s habits', () => {
  it('a token 403 with four reports at concurrency 4: one token request, every report failed with the same message (exit 1)', async () => {
    serveRows(server);
    forbidTokens(server);
    const r = await run('token-403', 'four');
    expect(r.code).toBe(1);
    expect(r.requests).toEqual({ token: 1, data: 0 });
    expect(r.manifest?.status).toBe('failed');
    const errors = r.manifest?.reports.map((x) => [x.reportId, x.status, x.errorCode, x.error]);
    const message = TOKEN_403_MESSAGE;
    expect(errors).toEqual(['a', 'b', 'c', 'd'].map((id) => [id, 'failed', 'AUTH_FORBIDDEN', message]));
    expect(r.stdout.split('\n').filter((l) => l.includes(message))).toHaveLength(4);
  });

  it('a duplicated --report runs the report once: one export, the manifest and _SUCCESS agree (exit 0)', async () => {
    serveRows(server);
    const r = await run('dup', 'four', ['--report', 'a', '--report', 'a']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.requests.data).toBe(1);
    expect(r.manifest?.reports.map((x) => [x.reportId, x.status])).toEqual([['a', 'succeeded']]);
    const success = Object.keys(r.texts).filter((k) => k.endsWith('/_SUCCESS'));
    expect(success.map((k) => k.slice(k.indexOf('exports/')))).toEqual([
      'exports/four/a/csv/dt=2026-11-22/_SUCCESS',
    ]);
    expect(r.texts.stderr).not.toMatch(/ENOENT|rename/);
  });

  it('500 reports in one schedule: refused before anything is fetched, with the reason (exit 2, no manifest)', async () => {
    const r = await run('big', 'big', [], CREDS, 'big.yaml');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('big.yaml has 1 problem for a deployment:');
    expect(r.stderr).toMatch(
      /schedules\[2\]\.reports: a run of schedule "big" could pass ~\d+ KB between its steps/,
    );
    expect(r.requests).toEqual({ token: 0, data: 0 });
    expect(r.manifest).toBeNull();
    expect(await readdir(join(dir, 'big-out')).catch(() => [])).toEqual([]);
  });

  it('metric and report names from Object’s prototype: exported, totalled, compared and emailed (exit 0)', async () => {
    for (const at of ['2026-11-22T06:00:00Z', AT]) {
      const r = await runCli(
        runArgs(
          'proto',
          at,
          '--out',
          join(dir, 'proto-out'),
          '--email-dir',
          join(dir, 'proto-mail'),
          '-c',
          join(dir, 'reports.yaml'),
        ),
        { env: CREDS },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain('email not sent');
    }
    const r = await run('proto', 'proto');
    expect(r.code, r.stderr).toBe(0);
    const [report] = r.manifest?.reports ?? [];
    expect(report?.totals).toEqual(PROTO_TOTALS);
    // the lookback re-export compared every total, "__proto__" included
    expect(Object.keys(r.manifest?.restated?.[0]?.reports[0]?.totals ?? {})).toEqual([...PROTO, 'likes']);
    const html = Object.entries(r.texts)
      .filter(([k]) => k.endsWith('.html'))
      .map(([, t]) => t)
      .join('\n');
    for (const label of ['Constructor', 'To string', 'Proto', 'Has own property'])
      expect(html).toContain(label);
    expect(html).toContain('no change');
    expect(html).not.toContain('[native code]');
  });

  it('only REPORTING_CLIENT_ID set: the missing variable named once, before any report, no manifest (exit 2)', async () => {
    const r = await run('half', 'four', [], {
      REPORTING_CLIENT_ID: 'client-23b',
      REPORTING_CLIENT_SECRET: '',
    });
    expect(r.code).toBe(2);
    const message =
      'REPORTING_CLIENT_SECRET is not set (REPORTING_CLIENT_ID is): set both for a local run, or neither to read the API credentials from the Secrets Manager secret "test/reporting"';
    expect(r.stderr.split(message)).toHaveLength(2);
    expect(r.stdout).toBe('');
    expect(r.manifest).toBeNull();
    expect(r.requests).toEqual({ token: 0, data: 0 });
  });

  it('no credentials and no AWS region: what to set, once, before any report, no manifest (exit 2)', async () => {
    const r = await run('no-region', 'four', [], {
      REPORTING_CLIENT_ID: '',
      REPORTING_CLIENT_SECRET: '',
      AWS_REGION: '',
      AWS_DEFAULT_REGION: '',
      AWS_CONFIG_FILE: join(dir, 'none'),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, 'none'),
    });
    expect(r.code).toBe(2);
    const message =
      'cannot read secret "test/reporting": no AWS region is configured (AWS_REGION). For a local run set REPORTING_CLIENT_ID and REPORTING_CLIENT_SECRET, or configure AWS so the secret can be read';
    expect(r.stderr.split(message)).toHaveLength(2);
    expect(r.manifest).toBeNull();
    expect(r.requests).toEqual({ token: 0, data: 0 });
  });

  it('a secret missing or half-set in Secrets Manager: named once, before any report, no manifest (exit 2 / 1), as Plan fails in the deployment', async (ctx) => {
    needMoto(ctx);
    const moto = await startMoto();
    const aws = {
      REPORTING_CLIENT_ID: '',
      REPORTING_CLIENT_SECRET: '',
      AWS_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL_SECRETS_MANAGER: moto.endpoint,
    };
    try {
      serveRows(server);
      const missing = await run('no-secret', 'four', [], aws);
      expect(missing.code).toBe(2);
      expect(missing.stderr.split(`error: ${SECRET_MISSING_MESSAGE}\n`)).toHaveLength(2);
      const secrets = new SecretsManagerClient({
        endpoint: moto.endpoint,
        region: 'eu-central-1',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
      const SecretString = JSON.stringify({ clientId: CLIENT_ID });
      await secrets.send(new CreateSecretCommand({ Name: 'test/reporting', SecretString }));
      const half = await run('half-secret', 'four', [], aws);
      expect(half.code).toBe(1);
      expect(half.stderr.split(`error: ${SECRET_HALF_MESSAGE}\n`)).toHaveLength(2);
      await secrets.send(
        new DeleteSecretCommand({ SecretId: 'test/reporting', ForceDeleteWithoutRecovery: true }),
      );
      for (const r of [missing, half]) {
        expect(r.stdout).toBe('');
        expect(r.manifest).toBeNull();
        expect(r.requests).toEqual({ token: 0, data: 0 });
      }
    } finally {
      await moto.stop();
    }
  });

  it('a config saved as UTF-16 with a BOM is read (exit 0)', async () => {
    const text = schedulesConfig(server.baseUrl);
    await writeFile(join(dir, 'utf16.yaml'), Buffer.from(`\uFEFF${text}`, 'utf16le'));
    const r = await run('utf16', 'four', ['--report', 'b'], CREDS, 'utf16.yaml');
    expect(r.code, r.stderr).toBe(0);
    expect(r.manifest?.reports.map((x) => x.status)).toEqual(['succeeded']);
  });

  it('an --out that cannot be written: named with its path, before any report, no manifest (exit 2)', async () => {
    const locked = join(dir, 'locked');
    await mkdir(locked);
    await chmod(locked, 0o555);
    await chmod(dir, 0o755);
    // root ignores permissions: run the CLI as nobody then
    const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
    const before = server.requests.length;
    const r = await runCli(
      runArgs('four', AT, '--out', join(locked, 'out'), '-c', join(dir, 'reports.yaml')),
      {
        env: { ...CREDS, HOME: dir },
        ...(user ? { user } : {}),
      },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `error: cannot write to the output folder ${join(locked, 'out')} (permission denied): choose another --out or make it writable`,
    );
    expect(server.requests.length).toBe(before);
    expect(r.stdout).toBe('');
  });
});
