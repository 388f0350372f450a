/**
 * `runAll` (the in-process run behind `run`, `backfill` and `demo`) when only the summary email
 * fails: the run's manifest comes from the core's result, never read back from the sink, and the
 * failure is listed for the exit code (or thrown when the caller keeps no list).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliLog } from '#adapters/cli-log';
import { createFsSink } from '#adapters/fs-sink';
import { type RunContext, runAll } from '#cli/commands/run';
import { isExporterError } from '#core/errors';
import type { Sink } from '#core/sink';
import { pagedApi, weeklyConfig } from '../core/run/fakes';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'run-all-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const AT = '2026-11-23T07:00:00Z';

/** A sink that fails every read made after the mailer was called, and a mailer that refuses. */
function refusedEmail(): Pick<RunContext, 'sink' | 'mailer'> & { readsAfterEmail: string[] } {
  const real = createFsSink(dir);
  let mailed = false;
  const readsAfterEmail: string[] = [];
  const sink: Sink = {
    ...real,
    async getObject(key) {
      if (!mailed) return real.getObject(key);
      readsAfterEmail.push(key);
      throw new Error(`read after the email failed: ${key}`);
    },
  };
  const mailer = {
    send: () => {
      mailed = true;
      return Promise.reject(new Error('MessageRejected: Email address is not verified.'));
    },
  };
  return { sink, mailer, readsAfterEmail };
}

function context(io: Pick<RunContext, 'sink' | 'mailer'>, emailFailures?: string[]): RunContext {
  const rows = [{ platform: 'instagram', metrics: { likes: 5 } }];
  return {
    config: weeklyConfig(),
    ...io,
    log: createCliLog({ tty: false }),
    api: () => pagedApi(rows, 10),
    ...(emailFailures ? { emailFailures } : {}),
  };
}

describe('runAll when only the email fails', () => {
  it('returns the run from the core result, lists the failure, and reads nothing back', async () => {
    const io = refusedEmail();
    const failures: string[] = [];
    const [manifest, ...more] = await runAll(context(io, failures), 'weekly', [AT], []);
    expect(more).toEqual([]);
    expect(manifest?.status).toBe('succeeded');
    expect(manifest?.reports.map((r) => [r.reportId, r.rowCount])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    expect(failures).toEqual([
      'weekly 2026-11-16..2026-11-22: the summary email was not sent: MessageRejected: Email address is not verified.',
    ]);
    expect(io.readsAfterEmail).toEqual([]);
  });

  it('throws EMAIL_FAILED when the caller keeps no list of email failures', async () => {
    const io = refusedEmail();
    const err = await runAll(context(io), 'weekly', [AT], []).catch((e: unknown) => e);
    expect(isExporterError(err, 'EMAIL_FAILED')).toBe(true);
    expect(io.readsAfterEmail).toEqual([]);
  });
});
