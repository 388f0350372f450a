/**
 * A restatement is told once, by the first email after it, whichever run committed it: run 2 re-exports
 * week one (lookback: 1) against grown values and is killed after that re-export committed, before its
 * Finalize wrote anything or sent an email; the re-run then finds week one's new figures already in the
 * manifest (its own before → after shows no change) and must still report the revision — against what
 * the last email about week one said (`emailed.json` beside the manifest). A third run of the same
 * window, with nothing new, reports it no more.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import type { ReportingApi } from '#core/api/types';
import type { Config } from '#core/config/schema';
import type { EmailMessage, Mailer } from '#core/email/types';
import { manifestKey } from '#core/export/keys';
import { silentLog } from '#core/log';
import { type Manifest, ManifestSchema, totalNumber } from '#core/manifest';
import { runSchedule } from '#core/run/run';
import type { Sink } from '#core/sink';
import { type Simulator, startSimulator } from '#simulator/server';
import { exampleConfig, simulatorApi } from './helpers';

const SCHEDULE = 'weekly-campaigns';
const AT = ['2026-11-16T07:00:00Z', '2026-11-23T07:00:00Z'];
const WEEK1 = '2026-11-15';
const en = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

let sim: Simulator;
let dir: string;
let config: Config;
let api: ReportingApi;
const sent: EmailMessage[] = [];
const mailer: Mailer = {
  send: async (m) => {
    sent.push(m);
    return `m-${sent.length}`;
  },
};
const stakeholders = () => sent.filter((m) => m.audience !== 'operators');

/** The folder sink, except that the process "dies" when Finalize writes the run's own record. */
function killedAtFinalize(sink: Sink): Sink {
  return new Proxy(sink, {
    get(target, prop, receiver) {
      if (prop === 'putObject') {
        return (key: string, body: string | Uint8Array, type: string) => {
          if (key.includes('/runs/')) return Promise.reject(new Error('killed (kill -9)'));
          return target.putObject(key, body, type);
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function week1(): Promise<Manifest> {
  const text = await readFile(join(dir, manifestKey(config.output.prefix, SCHEDULE, WEEK1)), 'utf8');
  return ManifestSchema.parse(JSON.parse(text));
}

const likes = (m: Manifest) => {
  const t = m.reports.find((r) => r.reportId === 'posts')?.totals.likes;
  if (t === undefined) throw new Error('no likes total');
  return totalNumber(t);
};

async function run(at: string, runId: string, sink: Sink, minutesLater = 0): Promise<void> {
  const { emailError } = await runSchedule(
    config,
    { scheduleId: SCHEDULE, scheduledTime: at },
    {
      api,
      sink,
      mailer,
      log: silentLog,
      // the re-run comes after the killed run's leases expired
      now: () => new Date(Date.now() + minutesLater * 60_000),
      newRunId: () => runId,
    },
  );
  if (emailError) throw emailError;
}

let emailedLikes: number;
let committedLikes: number;
beforeAll(async () => {
  sim = await startSimulator({ seed: 5, growth: 0.05, scale: { postsPerDay: 40 } });
  dir = await mkdtemp(join(tmpdir(), 'e2e-revision-kill-'));
  const base = await exampleConfig(sim.baseUrl);
  config = { ...base, schedules: base.schedules.map((s) => (s.id === SCHEDULE ? { ...s, lookback: 1 } : s)) };
  api = simulatorApi(sim, config);
  const sink = createFsSink(dir);
  await run(AT[0] ?? '', 'run-1', sink);
  emailedLikes = likes(await week1());
  sim.advance(); // late metrics: week one's counters grow
  await expect(run(AT[1] ?? '', 'run-2', killedAtFinalize(sink))).rejects.toThrow('killed');
  committedLikes = likes(await week1());
  await run(AT[1] ?? '', 'run-3', sink, 30);
  await run(AT[1] ?? '', 'run-4', sink, 60);
}, 120_000);

afterAll(async () => {
  await api?.close();
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a restatement committed by a run killed before its email', () => {
  it('was committed by the killed run, which sent nothing', () => {
    expect(committedLikes).toBeGreaterThan(emailedLikes);
    expect(stakeholders().map((m) => m.subject)).toHaveLength(3); // runs 1, 3 and 4
  });

  it('is reported by the re-run’s email, from the figure last emailed to the one now in the files', () => {
    const email = stakeholders()[1];
    const pct = (((committedLikes - emailedLikes) / emailedLikes) * 100).toFixed(1);
    expect(email?.text).toContain(
      `Week of 9 Nov · Posts: likes revised from ${en.format(emailedLikes)} to ${en.format(committedLikes)}, +${pct} %`,
    );
  });

  it('and only once: the next email about the same window, with nothing new, has no Revised line for it', () => {
    expect(stakeholders()[2]?.text).not.toContain('Week of 9 Nov · Posts: likes revised');
    expect(stakeholders()[2]?.text).not.toContain('Revised (earlier windows');
  });
});
