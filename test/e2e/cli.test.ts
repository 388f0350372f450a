import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '#core/config/schema';
import { type Simulator, startSimulator } from '#simulator/server';
import { type LocalS3, startLocalS3 } from '../support/local-s3';
import { apiCredentials, backfillArgs, type CliResult, localAws, runArgs, runCli } from '../support/run-cli';

let sim: Simulator;
let s3: LocalS3;
let dir: string;
let configPath: string;

function config(baseUrl: string): string {
  return `
api: { baseUrl: ${baseUrl}, credentialsSecret: test/reporting, pageSize: 200 }
output: { prefix: exports/, formats: [parquet, csv] }
email: { from: Reports <reports@example.com> }
schedules:
  - id: daily
    cron: "0 6 * * ? *"
    timezone: Asia/Tokyo
    window: yesterday
    recipients: [team@example.com]
    reports:
      - id: posts
        route: posts/performance
        metrics: [likes, shares]
        summary: { kpis: [likes], topBy: likes }
      - id: platforms
        route: platforms/performance
        metrics: [likes]
  - id: broken
    cron: "0 6 * * ? *"
    window: yesterday
    reports:
      - id: good
        route: platforms/performance
        metrics: [likes]
      - id: bad-metric
        route: platforms/performance
        metrics: [noSuchMetric]
`;
}

/** `report-exporter ARGS -c <the test's config>` in the test's folder, against the simulator and local S3. */
function cli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runCli([...args, '-c', configPath], {
    cwd: dir,
    env: { ...apiCredentials(sim.credentials), ...localAws({ AWS_ENDPOINT_URL_S3: s3.endpoint }), ...env },
  });
}

beforeAll(async () => {
  sim = await startSimulator({
    seed: 3,
    dialect: { strict: true, arrayFormat: 'repeat' },
    faults: { rate5xx: 0.05, rate429: 0.05, retryAfterSeconds: 0 },
  });
  s3 = await startLocalS3();
  await s3.createBucket('cli-bucket');
  dir = await mkdtemp(join(tmpdir(), 'cli-'));
  configPath = join(dir, 'reports.yaml');
  await writeFile(configPath, config(sim.baseUrl));
}, 30_000);

afterAll(async () => {
  await sim?.close();
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('report-exporter CLI', () => {
  it('run --out writes the partition and emails into --email-dir; exit 0; no secret in any output', async () => {
    const r = await cli(runArgs('daily', '2026-11-23T06:00:00+09:00', '--out', 'out', '--email-dir', 'mail'));
    expect(r.code, r.stderr).toBe(0);
    // 06:00 in Tokyo on the 23rd is the 22nd in UTC: yesterday is the 22nd local
    expect(r.stdout).toContain('daily 2026-11-22..2026-11-22: succeeded');
    expect(await readdir(join(dir, 'out/exports/daily/posts/parquet/dt=2026-11-22'))).toEqual([
      '_SUCCESS',
      'part-00000.parquet',
    ]);
    expect((await readdir(join(dir, 'mail'))).some((f) => f.endsWith('.eml'))).toBe(true);
    const secret = sim.credentials.clientSecret;
    expect(r.stdout + r.stderr).not.toContain(secret);
    for (const f of await readdir(join(dir, 'mail')))
      expect(await readFile(join(dir, 'mail', f), 'utf8')).not.toContain(secret);
  });

  it('writes the same bytes with an encoder worker (REPORT_EXPORTER_ENCODER_WORKERS=1; the default on more than two cores) as on the main thread (0; the default on two)', async () => {
    const files = async (out: string, workers: string) => {
      const r = await cli(runArgs('daily', '2026-11-23T06:00:00+09:00', '--out', out, '--no-email'), {
        REPORT_EXPORTER_ENCODER_WORKERS: workers,
      });
      expect(r.code, r.stderr).toBe(0);
      const parts = join(dir, out, 'exports/daily/posts');
      return Promise.all(
        ['parquet/dt=2026-11-22/part-00000.parquet', 'csv/dt=2026-11-22/part-00000.csv'].map((f) =>
          readFile(join(parts, f)),
        ),
      );
    };
    const [inWorker, inline] = [await files('out-worker', '1'), await files('out-inline', '0')];
    expect(inWorker[0]?.length).toBeGreaterThan(1000);
    expect(inWorker).toEqual(inline);
    const bad = await cli(runArgs('daily', '2026-11-23T06:00:00+09:00', '--out', 'x'), {
      REPORT_EXPORTER_ENCODER_WORKERS: 'many',
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('REPORT_EXPORTER_ENCODER_WORKERS is "many"');
  });

  it("keeps the validated config in the user's cache folder, and a later run starts from it; REPORT_EXPORTER_CONFIG_CACHE=0 keeps none", async () => {
    const cache = join(dir, 'xdg-cache');
    const folder = join(cache, 'report-exporter', 'config');
    const run = (out: string, env: NodeJS.ProcessEnv = {}) =>
      cli(runArgs('daily', '2026-11-23T06:00:00+09:00', '--out', out), { XDG_CACHE_HOME: cache, ...env });
    const reportsOf = async (out: string) =>
      (await readdir(join(dir, out, 'exports/daily'))).filter((d) => !d.startsWith('_'));

    expect((await run('cache-off', { REPORT_EXPORTER_CONFIG_CACHE: '0' })).code).toBe(0);
    expect(existsSync(cache)).toBe(false);

    const first = await run('cache-first');
    expect(first.code, first.stderr).toBe(0);
    const [entry, ...more] = await readdir(folder);
    expect(more).toEqual([]);
    const path = join(folder, entry as string);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const bytes = await readFile(path);
    expect(bytes.includes(sim.credentials.clientSecret)).toBe(false);
    expect(await reportsOf('cache-first')).toEqual(['platforms', 'posts']);

    // the entry is what a later run uses: one whose schedule lost a report runs without it
    const kept = deserialize(bytes) as { config: Config };
    const [daily] = kept.config.schedules;
    const edited = { ...daily, reports: daily?.reports.filter((r) => r.id === 'posts') };
    await writeFile(path, serialize({ ...kept, config: { ...kept.config, schedules: [edited] } }));
    expect((await run('cache-hit')).code).toBe(0);
    expect(await reportsOf('cache-hit')).toEqual(['posts']);

    // an edit to the file is a miss: parsed again, and kept beside the first
    await writeFile(configPath, `${config(sim.baseUrl)}# edited\n`);
    try {
      expect((await run('cache-edited')).code).toBe(0);
      expect(await reportsOf('cache-edited')).toEqual(['platforms', 'posts']);
      expect(await readdir(folder)).toHaveLength(2);
    } finally {
      await writeFile(configPath, config(sim.baseUrl));
    }
  });

  it('run --bucket writes the same layout to S3 (endpoint from AWS_ENDPOINT_URL_S3)', async () => {
    const r = await cli(
      runArgs(
        'daily',
        '2026-11-23T06:00:00+09:00',
        '--report',
        'platforms',
        '--bucket',
        'cli-bucket',
        '--no-email',
      ),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('s3://cli-bucket/exports/daily/_manifests/dt=2026-11-22/manifest.json');
  });

  it('reads an --at without offset in the schedule timezone', async () => {
    // 23:30 on the 23rd in Tokyo (as UTC it would already be the 24th there)
    const r = await cli(
      runArgs('daily', '2026-11-23T23:30', '--report', 'platforms', '--out', 'local-at', '--no-email'),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('daily 2026-11-22..2026-11-22: succeeded');
  });

  it('exits 1 when a report fails, still writing the others, with the server-named valid metrics in the reason', async () => {
    const r = await cli(runArgs('broken', '2026-11-23T06:00:00Z', '--out', 'out', '--no-email'));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/bad-metric\s+FAILED: .*noSuchMetric/);
    expect(await readdir(join(dir, 'out/exports/broken/good/csv/dt=2026-11-22'))).toContain('_SUCCESS');
    expect(r.stdout + r.stderr).not.toContain(sim.credentials.clientSecret);
  });

  it('backfill runs every window whose data overlaps the range, oldest first', async () => {
    const r = await cli(backfillArgs('daily', '2026-11-01', '2026-11-03', '--out', 'bf', '--no-email'));
    expect(r.code, r.stderr).toBe(0);
    const windows = [...r.stdout.matchAll(/^daily (\S+): succeeded$/gm)].map((m) => m[1]);
    expect(windows).toEqual(['2026-11-01..2026-11-01', '2026-11-02..2026-11-02', '2026-11-03..2026-11-03']);
  });

  it('backfill --dry-run lists the windows and writes nothing', async () => {
    const r = await cli(backfillArgs('daily', '2026-10-30', '2026-11-01', '--out', 'dry', '--dry-run'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '3 window(s) of daily overlap 2026-10-30..2026-11-01 (dry run: nothing written)',
    );
    expect([...r.stdout.matchAll(/^ {2}(\S+) {2}occurrence (\S+)$/gm)].map((m) => [m[1], m[2]])).toEqual([
      ['2026-10-30..2026-10-30', '2026-10-30T21:00:00.000Z'],
      ['2026-10-31..2026-10-31', '2026-10-31T21:00:00.000Z'],
      ['2026-11-01..2026-11-01', '2026-11-01T21:00:00.000Z'],
    ]);
    await expect(readdir(join(dir, 'dry'))).rejects.toThrow(/ENOENT/);
  });

  it('backfill of dates no window has yet exits 2 saying why', async () => {
    const r = await cli(backfillArgs('daily', '2099-01-01', '2099-01-02', '--out', 'none', '--dry-run'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not yet due: daily 2099-01-01..2099-01-01');
    expect(r.stderr).toMatch(
      /nothing to backfill for daily 2099-01-01\.\.2099-01-02: the 2 window\(s\) overlapping it are not due yet/,
    );
  });

  it('run without --at runs the latest occurrence and prints its window', async () => {
    const r = await cli(['run', '--schedule', 'daily', '--report', 'platforms', '--out', 'latest']);
    expect(r.code, r.stderr).toBe(0);
    const header =
      /^daily: occurrence (\S+) \(cron 0 6 \* \* \? \*, Asia\/Tokyo\), window (\S+)\.\.(\S+)$/m.exec(
        r.stderr,
      );
    expect(header, r.stderr).not.toBeNull();
    const [, at = '', start, end] = header ?? [];
    // 06:00 Tokyo is 21:00 UTC the day before; the latest one is at most a day old
    expect(at).toMatch(/T21:00:00\.000Z$/);
    expect(Date.now() - Date.parse(at)).toBeLessThan(86_400_000);
    expect(Date.now() - Date.parse(at)).toBeGreaterThanOrEqual(0);
    expect(start).toBe(end);
    expect(r.stdout).toContain(`daily ${start}..${end}: succeeded`);
  });

  it('--version prints the version of package.json', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it("run --at DATE runs that day's occurrence", async () => {
    const r = await cli([
      'run',
      '--schedule',
      'daily',
      '--at',
      '2026-11-23',
      '--report',
      'platforms',
      '--out',
      'day',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('daily: occurrence 2026-11-22T21:00:00.000Z');
    expect(r.stdout).toContain('daily 2026-11-22..2026-11-22: succeeded');
  });

  it.each([
    [
      ['run', '--schedule', 'daily', '--out', 'o', '--bucket', 'b'],
      /exactly one of --bucket NAME or --out DIR/,
    ],
    [['run', '--schedule', 'daily'], /exactly one of --bucket NAME or --out DIR/],
    [['run', '--schedule', 'nope', '--out', 'o', '--no-email'], /unknown schedule "nope"/],
    [['run', '--schedule', 'daily', '--report', 'nope', '--out', 'o', '--no-email'], /unknown report "nope"/],
    [
      ['run', '--schedule', 'daily', '--at', 'yesterday', '--out', 'o', '--no-email'],
      /--at "yesterday" is neither a date \(2026-11-23\) nor an ISO-8601 time/,
    ],
    [
      ['run', '--schedule', 'daily', '--out', 'o', '--no-email', '--email-dir', 'm'],
      /cannot be used together/,
    ],
    [
      ['backfill', '--schedule', 'daily', '--from', '2026-11-05', '--to', '2026-11-01', '--out', 'o'],
      /not a valid date range/,
    ],
    [
      ['backfill', '--schedule', 'daily', '--from', 'nov', '--to', '2026-11-01', '--out', 'o'],
      /is not a date/,
    ],
  ])('exits 2 on a usage error: %j', async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
