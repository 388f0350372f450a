/**
 * "Did you mean" from the names the API itself listed: a real `run` (and `check`) against a server
 * whose 400 names valid metrics the document and the simulator never mention, in a field named like
 * nothing we expect (`supported`); then `validate` suggests the right name from that set — from the
 * file the CLI keeps beside the config, or from the run's manifest (`--manifest`).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManifestSchema } from '#core/manifest';
import { type HostileServer, json, startHostileServer } from '../support/hostile-server';
import { apiCredentials, runCli } from '../support/run-cli';

const SUPPORTED = ['likes', 'comments', 'storyReplies', 'storyExits'];
const SECRET = 'learned-metrics-secret-value';
const SUGGESTION =
  'did you mean "storyReplies", a name the API listed as valid on posts/performance in an earlier 400?';

let server: HostileServer;
let dir: string;
let configPath: string;

const configText = (baseUrl: string) => `
api: { baseUrl: ${baseUrl}, credentialsSecret: test/reporting }
output: { prefix: exports/, formats: [csv] }
schedules:
  - id: daily
    cron: "0 6 * * ? *"
    window: yesterday
    reports:
      - { id: posts, route: posts/performance, metrics: [likes, storyReplys] }
`;

beforeAll(async () => {
  server = await startHostileServer({ issueTokens: true });
  server.routes.set('/v2/posts/performance', (req, res) => {
    const asked = req.url.searchParams.getAll('metrics');
    const unknown = asked.filter((m) => !SUPPORTED.includes(m));
    if (unknown.length > 0) {
      json(res, 400, {
        title: 'Invalid metrics',
        detail: `unknown: ${unknown.join(', ')}`,
        supported: SUPPORTED,
      });
      return;
    }
    json(res, 200, { data: [], nextCursor: null });
  });
  dir = await mkdtemp(join(tmpdir(), 'learned-metrics-'));
  configPath = join(dir, 'reports.yaml');
  await writeFile(configPath, configText(server.baseUrl));
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The CLI with this server's (fake) credentials in its environment. */
const cli = (args: readonly string[]) =>
  runCli(args, { env: apiCredentials({ clientId: 'learned-client', clientSecret: SECRET }) });

const cachePath = () => join(dir, '.report-exporter', 'known-metrics.json');

describe('validate learns metric names from an earlier 400', () => {
  it('before any run, validate has nothing to suggest for storyReplys', async () => {
    const r = await cli(['validate', '-c', configPath]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('run gets the 400, records the valid set (manifest and file), and validate then suggests from it', async () => {
    const r = await cli([
      'run',
      '--schedule',
      'daily',
      '--at',
      '2026-11-23T06:00:00Z',
      '--out',
      join(dir, 'out'),
      '-c',
      configPath,
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/posts\s+FAILED: .*storyReplies/);
    expect(r.stderr).toContain(`kept in ${cachePath()}`);
    const manifestPath = join(dir, 'out/exports/daily/_manifests/dt=2026-11-22/manifest.json');
    const manifest = ManifestSchema.parse(JSON.parse(await readFile(manifestPath, 'utf8')));
    expect(manifest.reports[0]?.validMetrics).toEqual(SUPPORTED);
    const cache = JSON.parse(await readFile(cachePath(), 'utf8'));
    expect(cache.routes['posts/performance'].names).toEqual(SUPPORTED);
    expect(JSON.stringify(cache) + r.stdout + r.stderr).not.toContain(SECRET);

    const v = await cli(['validate', '-c', configPath]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stderr).toContain(
      `warning: schedules[0].reports[0].metrics[1]: metric "storyReplys" is not a name we know — ${SUGGESTION}`,
    );

    // another folder (no file beside its config) learns the same from the run's manifest
    const elsewhere = join(dir, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'reports.yaml'), configText(server.baseUrl));
    const plain = await cli(['validate', '-c', join(elsewhere, 'reports.yaml')]);
    expect(plain.stderr).toBe('');
    const withManifest = await cli([
      'validate',
      '-c',
      join(elsewhere, 'reports.yaml'),
      '--manifest',
      manifestPath,
    ]);
    expect(withManifest.code, withManifest.stderr).toBe(0);
    expect(withManifest.stderr).toContain(SUGGESTION);
  });

  it('check records the set too', async () => {
    await rm(join(dir, '.report-exporter'), { recursive: true, force: true });
    const c = await cli(['check', '-c', configPath, '--window', '2026-11-01..2026-11-01']);
    expect(c.code).toBe(1);
    expect(c.stdout).toContain('posts (posts/performance): FAILED');
    expect(c.stderr).toContain(`kept in ${cachePath()}`);
    const v = await cli(['validate', '-c', configPath]);
    expect(v.stderr).toContain(SUGGESTION);
  });

  it('a --manifest that cannot be read is a usage error (exit 2)', async () => {
    const r = await cli(['validate', '-c', configPath, '--manifest', join(dir, 'nope.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--manifest "${join(dir, 'nope.json')}": cannot read it`);
  });
});
