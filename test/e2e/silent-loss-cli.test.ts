/**
 * The silent-loss guards seen from outside: a real `report-exporter run` process against simulators
 * that read the API document differently from the config (arrays comma-joined while the config says
 * `repeat`; the cursor under `meta`). Such a run is not a plain success: exit code 3, each warning's
 * code printed and in the manifest. The same run against a server that agrees exits 0 with none.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Manifest, ManifestSchema } from '#core/manifest';
import { type Dialect, type Simulator, startSimulator } from '#simulator/server';
import { startCli } from './cli-runs';

const AT = '2026-11-23T06:00:00Z';
const PAGE_SIZE = 27;

let sim: Simulator;
let dir: string;
let configPath: string;

beforeAll(async () => {
  sim = await startSimulator({ seed: 5, scale: { postsPerDay: 60 } });
  dir = await mkdtemp(join(tmpdir(), 'silent-loss-'));
  configPath = join(dir, 'reports.yaml');
  await writeFile(
    configPath,
    `
api: { baseUrl: ${sim.baseUrl}, credentialsSecret: test/reporting, arrayFormat: repeat, pageSize: ${PAGE_SIZE} }
output: { prefix: exports/, formats: [csv] }
schedules:
  - id: daily
    cron: "0 6 * * ? *"
    window: yesterday
    reports:
      - { id: posts, route: posts/performance, metrics: [likes, comments, shares] }
`,
  );
}, 30_000);

afterAll(async () => {
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

/** One `run` of the daily schedule into its own folder, against the simulator set to `dialect`. */
async function run(dialect: Partial<Dialect>, out: string) {
  sim.setDialect({ arrayFormat: 'any', strict: false, cursorAt: 'nextCursor', ...dialect });
  const exited = await startCli(dir, sim, [
    'run',
    '--schedule',
    'daily',
    '--at',
    AT,
    '--out',
    out,
    '-c',
    configPath,
  ]).done;
  const text = await readFile(join(dir, out, 'exports/daily/_manifests/dt=2026-11-22/manifest.json'), 'utf8');
  const manifest: Manifest = ManifestSchema.parse(JSON.parse(text));
  return { ...exited, manifest };
}

const codesOf = (m: Manifest) =>
  (m.reports[0]?.warnings ?? []).map((w) => `${w.code} ${w.column ?? ''}`.trim());

describe('report-exporter run: exit code 3 when the server drops data silently', () => {
  it('a server that reads metrics comma-joined (config: repeat) exits 3, printing and recording METRIC_MISSING', async () => {
    const r = await run({ arrayFormat: 'comma' }, 'comma');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toContain('daily 2026-11-22..2026-11-22: succeeded');
    expect(r.stdout).toMatch(/posts\s+\d+ rows, 1 files — 2 WARNING\(S\)/);
    expect(r.stdout).toContain('WARNING METRIC_MISSING: metric "comments" was requested');
    expect(r.stdout).toContain('WARNING METRIC_MISSING: metric "shares" was requested');
    expect(r.manifest.reports[0]?.status).toBe('succeeded');
    expect(codesOf(r.manifest)).toEqual(['METRIC_MISSING comments', 'METRIC_MISSING shares']);
  });

  it('a server that puts the cursor under meta exits 3, printing and recording PAGE_FULL_NO_CURSOR', async () => {
    const r = await run({ arrayFormat: 'repeat', cursorAt: 'meta.nextCursor' }, 'meta');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toContain('WARNING PAGE_FULL_NO_CURSOR: paging stopped at page 1');
    expect(r.stdout).toContain('set api.cursorPath: meta.nextCursor');
    expect(codesOf(r.manifest)).toEqual(['PAGE_FULL_NO_CURSOR']);
    // only the first page was exported: the loss the warning is about
    expect(r.manifest.reports[0]?.rowCount).toBe(PAGE_SIZE);
  });

  it('the same run against a strict server that agrees with the config exits 0 with no warnings', async () => {
    const r = await run({ arrayFormat: 'repeat', strict: true }, 'agree');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('WARNING');
    expect(r.manifest.status).toBe('succeeded');
    expect(r.manifest.reports[0]?.warnings).toBeUndefined();
    // more than one page, so paging and every metric really were exercised
    expect(r.manifest.reports[0]?.pages).toBeGreaterThan(1);
    expect(r.manifest.reports[0]?.rowCount).toBeGreaterThan(PAGE_SIZE);
  });
});
