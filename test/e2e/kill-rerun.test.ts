/**
 * `kill -9` at random instants of a re-run (real `report-exporter run` processes), a bounded loop:
 * after every kill the window must be consistent (each report's manifest entry agrees with its parts,
 * sha256 and rows, or `_SUCCESS` is absent; nothing but parts and `_SUCCESS` in a partition), and a
 * complete re-run afterwards must leave it consistent with no temporary, staged or lease file left.
 * Two simulators with different seeds and sizes feed alternate runs, so a re-run really changes the
 * bytes and the number of parts (a half-replaced partition cannot pass for a whole one).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '#simulator/server';
import { leftovers, readManifest, windowProblems } from '../support/consistency';
import { dailyWindow, startDailyRun, writeConfig } from './cli-runs';

const KILLS = 8;

let big: Simulator;
let small: Simulator;
let dir: string;
beforeAll(async () => {
  [big, small] = await Promise.all([
    startSimulator({ seed: 1, latencyMs: 20, scale: { postsPerDay: 3000 } }),
    startSimulator({ seed: 2, latencyMs: 20, scale: { postsPerDay: 1500 } }),
  ]);
  dir = await mkdtemp(join(tmpdir(), 'kill-'));
  await writeConfig(dir, big, 'big.yaml');
  await writeConfig(dir, small, 'small.yaml');
}, 60_000);
afterAll(async () => {
  await Promise.all([big?.close(), small?.close()]);
  await rm(dir, { recursive: true, force: true });
});

const out = () => join(dir, 'out');
const window = () => dailyWindow(out());
const args = (config: string) => ['--out', out(), '-c', config];
const simOf = (i: number) =>
  i % 2 === 0 ? { sim: small, config: 'small.yaml' } : { sim: big, config: 'big.yaml' };

describe('kill -9 during a re-run', () => {
  it('leaves a consistent window after every kill, and a complete re-run leaves no temporary file', async () => {
    const firstRun = startDailyRun(dir, big, args('big.yaml'));
    let planned = 0;
    firstRun.child.stderr?.on('data', (c: Buffer) => {
      if (c.toString().includes('run planned')) planned = Date.now();
    });
    const first = await firstRun.done;
    expect(first.code).toBe(0);
    const duration = Date.now() - planned; // from "run planned" to the end: where the kills land
    expect(await windowProblems(window())).toEqual([]);
    const mid: string[] = [];
    for (let i = 0; i < KILLS; i += 1) {
      const { sim, config } = simOf(i);
      const run = startDailyRun(dir, sim, args(config));
      // Kill at a random instant between the run's "run planned" line and its expected end.
      const delay = Math.floor(Math.random() * duration);
      run.child.stderr?.on('data', (c: Buffer) => {
        if (c.toString().includes('run planned')) setTimeout(() => run.child.kill('SIGKILL'), delay);
      });
      const exited = await run.done;
      const problems = await windowProblems(window());
      expect(problems, `after kill ${i} at +${delay} ms`).toEqual([]);
      const m = await readManifest(window());
      const rewriting = m?.reports.some((r) => r.error?.startsWith('being rewritten')) ?? false;
      const left = (await leftovers(window())).length;
      const state = `${rewriting ? ' mid-commit' : ''}${left > 0 ? ` ${left} temporary/staged` : ''}`;
      mid.push(`${exited.signal ?? `exit ${exited.code}`} at +${delay}/${duration} ms${state}`);
    }
    expect(mid.filter((m) => m.startsWith('SIGKILL')).length).toBeGreaterThan(0);
    // A complete re-run (the other data set than the last killed one) after the kills.
    const last = await startDailyRun(dir, big, args('big.yaml')).done;
    expect(last.code, last.stderr).toBe(0);
    expect(await windowProblems(window())).toEqual([]);
    expect(await leftovers(window())).toEqual([]);
    const m = await readManifest(window());
    expect(m?.status).toBe('succeeded');
    expect(m?.reports.map((r) => r.rowCount)).toEqual([3000, expect.any(Number)]);
    process.stdout.write(`kill -9 loop: ${mid.join(', ')}\n`);
  }, 300_000);
});
