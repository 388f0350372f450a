/**
 * runSchedule asks for the run's API token while it takes the window's lease, so the first page
 * request does not wait for the token afterwards (docs/performance.md, "Start"); a refused token
 * (scoped to the run by the client's token manager) leaves the reports to fail with it, as before.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import { ExporterError } from '#core/errors';
import { silentLog } from '#core/log';
import { runSchedule } from '#core/run/run';
import type { Sink } from '#core/sink';
import { pagedApi, postRows, postsConfig } from './fakes';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'run-token-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A run of 1,000 rows whose API records when, and for which run, a token is asked for. */
async function run(authenticate: (runId: string | undefined) => Promise<void>) {
  const real = createFsSink(dir);
  const order: string[] = [];
  const sink: Sink = {
    ...real,
    async putIf(key, body, type, condition) {
      if (key.endsWith('_lease.json')) order.push('lease');
      return real.putIf(key, body, type, condition);
    },
  };
  const api = {
    ...pagedApi(postRows(1000), 400),
    async authenticate(call?: { runId?: string }) {
      order.push(`token ${call?.runId}`);
      return authenticate(call?.runId);
    },
  };
  const { manifest } = await runSchedule(
    postsConfig(),
    { scheduleId: 'daily', scheduledTime: '2026-11-23T08:00:00Z' },
    { api, sink, mailer: null, log: silentLog, now: () => new Date(), newRunId: () => 'r' },
  );
  return { order, manifest };
}

describe('runSchedule and the API token', () => {
  it("asks for the run's token before the window's lease is taken, once", async () => {
    const { order, manifest } = await run(async () => undefined);
    expect(order.filter((o) => o.startsWith('token'))).toEqual(['token r']);
    expect(order.indexOf('token r')).toBeLessThan(order.indexOf('lease'));
    expect(manifest.status).toBe('succeeded');
  });

  it('a refused token does not stop the run by itself: the reports meet the refusal through their own requests', async () => {
    const { manifest } = await run(async () => {
      throw new ExporterError('AUTH_FORBIDDEN', 'the token route answered 403');
    });
    // this fake's pages do not share the client's token manager, so the report succeeds: nothing
    // of the early request's failure leaks into the run (no unhandled rejection, no thrown error)
    expect(manifest.status).toBe('succeeded');
  });
});
