/**
 * One writer per window. Before a run touches a window's partitions it holds the window's lease, a
 * small JSON object beside the window's manifest (`leaseKey`), created with a conditional write
 * (S3 `If-None-Match: *`, a folder's exclusive create). The holder renews it (compare-and-swap on its
 * entity tag) while it works and deletes it when the run is finalized. Another run finding a live
 * lease waits up to `waitMs`, then stops with `WINDOW_BUSY` naming the holder. A lease whose
 * `expiresAt` has passed — or, for a local run, whose process on this host is gone — belongs to a dead
 * run and is taken over with a compare-and-swap on the stale version's tag, so of two runs taking
 * over at once only one wins. Acquiring is re-entrant for the same run id (the workflow's parallel
 * Export steps of one run share the lease).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod/mini';
import { ExporterError } from '../errors';
import { leaseKey } from '../export/keys';
import type { Log } from '../log';
import type { Window } from '../manifest';
import type { Sink } from '../sink';

export const LeaseRecordSchema = z.object({
  leaseVersion: z.literal(1),
  runId: z.string(),
  scheduleId: z.string(),
  window: z.object({ start: z.string(), end: z.string() }),
  acquiredAt: z.string(),
  renewedAt: z.string(),
  expiresAt: z.string(),
  /** Set by local runs (CLI) only: a dead process on the same host frees the lease at once. */
  host: z.optional(z.string()),
  pid: z.optional(z.int()),
});
export type LeaseRecord = z.infer<typeof LeaseRecordSchema>;

/** The local process, for runs that can tell whether a process of their host is alive. */
export interface LocalOwner {
  readonly host: string;
  readonly pid: number;
  readonly alive: (pid: number) => boolean;
}

export interface LeaseOptions {
  /** A lease not renewed for this long has expired. */
  readonly ttlMs: number;
  /** How long to wait for another run's live lease before stopping with WINDOW_BUSY. */
  readonly waitMs: number;
  readonly pollMs: number;
  readonly owner?: LocalOwner;
}

/** The CLI: short leases renewed every 30 s; a killed local run frees its window at once. */
export const CLI_LEASE: LeaseOptions = { ttlMs: 120_000, waitMs: 30_000, pollMs: 1_000 };
/** The workflow: a lease outlives the gaps between steps (retries, queueing) but not a dead run for long. */
export const WORKFLOW_LEASE: LeaseOptions = { ttlMs: 600_000, waitMs: 60_000, pollMs: 5_000 };

export interface WindowRef {
  readonly prefix: string;
  readonly scheduleId: string;
  readonly window: Window;
}

export class WindowLease {
  private constructor(
    private readonly sink: Sink,
    readonly key: string,
    private readonly ref: WindowRef,
    readonly runId: string,
    private readonly options: LeaseOptions,
    private readonly now: () => Date,
  ) {}

  /** Takes (or re-enters) the window's lease; throws WINDOW_BUSY after waiting `waitMs`. */
  static async acquire(
    sink: Sink,
    ref: WindowRef,
    runId: string,
    options: LeaseOptions,
    now: () => Date,
    log?: Log,
  ): Promise<WindowLease> {
    const lease = new WindowLease(
      sink,
      leaseKey(ref.prefix, ref.scheduleId, ref.window.end),
      ref,
      runId,
      options,
      now,
    );
    const started = now().getTime();
    let told = false;
    for (;;) {
      const current = await lease.read();
      const body = lease.record(current?.record?.runId === runId ? current.record.acquiredAt : undefined);
      let won: string | null;
      if (!current) won = await sink.putIf(lease.key, body, 'application/json', { ifNoneMatch: '*' });
      else if (!current.record || current.record.runId === runId || lease.isDead(current.record))
        won = await sink.putIf(lease.key, body, 'application/json', { ifMatch: current.etag });
      else if (now().getTime() - started >= options.waitMs) throw lease.busy(current.record);
      else {
        if (!told)
          log?.warn(
            `waiting up to ${Math.round(options.waitMs / 1000)} s for the window`,
            lease.facts(current.record),
          );
        told = true;
        await sleep(options.pollMs);
        continue;
      }
      // Read back: a store that ignores conditions would let two runs "win"; the later read sees one.
      if (won !== null && (await lease.read())?.record?.runId === runId) return lease;
    }
  }

  /** Extends the lease; throws LEASE_LOST when another run holds it now. */
  async renew(): Promise<void> {
    const asked = this.now().getTime();
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const current = await this.read();
      if (current?.record?.runId !== this.runId) throw this.lost(current?.record ?? null);
      // another step of this run renewed it since this renewal began: it is extended already (many
      // reports of one run renewing at once would otherwise keep failing each other's swaps)
      if (attempt > 0 && Date.parse(current.record.renewedAt) >= asked) return;
      const body = this.record(current.record.acquiredAt);
      if (await this.sink.putIf(this.key, body, 'application/json', { ifMatch: current.etag })) return;
    }
    throw new ExporterError(
      'WRITE_FAILED',
      `the lease ${this.sink.locate(this.key)} kept changing while renewed`,
    );
  }

  /**
   * Renews every `everyMs` until stopped. A renewal that fails is not fatal here: the commit checks
   * the lease again before it publishes, so a run that lost its lease fails there, with nothing
   * published.
   */
  keepAlive(everyMs = this.options.ttlMs / 4): { stop(): void } {
    let renewing = false; // a slow renewal is not overlapped by the next tick
    const timer = setInterval(() => {
      if (renewing) return;
      renewing = true;
      this.renew()
        .catch(() => undefined)
        .finally(() => {
          renewing = false;
        });
    }, everyMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  /** Deletes the lease if this run still holds it. Never throws. */
  async release(): Promise<void> {
    try {
      const current = await this.read();
      if (current?.record?.runId === this.runId) await this.sink.deleteObjects([this.key]);
    } catch {
      // an unreleased lease expires by itself
    }
  }

  private async read(): Promise<{ etag: string; record: LeaseRecord | null } | null> {
    const got = await this.sink.getTagged(this.key);
    if (!got) return null;
    try {
      const parsed = LeaseRecordSchema.safeParse(JSON.parse(new TextDecoder().decode(got.body)));
      return { etag: got.etag, record: parsed.success ? parsed.data : null };
    } catch {
      return { etag: got.etag, record: null }; // unreadable: treated as dead
    }
  }

  private record(acquiredAt: string | undefined): string {
    const now = this.now();
    const record: LeaseRecord = {
      leaseVersion: 1,
      runId: this.runId,
      scheduleId: this.ref.scheduleId,
      window: { start: this.ref.window.start, end: this.ref.window.end },
      acquiredAt: acquiredAt ?? now.toISOString(),
      renewedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.options.ttlMs).toISOString(),
      ...(this.options.owner ? { host: this.options.owner.host, pid: this.options.owner.pid } : {}),
    };
    return `${JSON.stringify(record, null, 2)}\n`;
  }

  private isDead(r: LeaseRecord): boolean {
    if (Date.parse(r.expiresAt) <= this.now().getTime()) return true;
    const me = this.options.owner;
    return me !== undefined && r.host === me.host && r.pid !== undefined && !me.alive(r.pid);
  }

  private facts(r: LeaseRecord): Record<string, string> {
    return {
      window: `${this.ref.window.start}..${this.ref.window.end}`,
      heldBy: r.runId,
      since: r.acquiredAt,
    };
  }

  private describe(r: LeaseRecord): string {
    const where = r.host ? ` on host ${r.host}, pid ${r.pid ?? '?'}` : '';
    return `run ${r.runId} (since ${r.acquiredAt}${where}; its lease expires at ${r.expiresAt} unless renewed)`;
  }

  private busy(r: LeaseRecord): ExporterError {
    const w = `${this.ref.window.start}..${this.ref.window.end}`;
    return new ExporterError(
      'WINDOW_BUSY',
      `window ${w} of schedule "${this.ref.scheduleId}" is being written by ${this.describe(r)}; ` +
        `waited ${Math.round(this.options.waitMs / 1000)} s. Run again when it has finished. If that run ` +
        `is dead, its lease expires by itself, or delete ${this.sink.locate(this.key)} to clear it now.`,
      { details: { holder: r.runId, since: r.acquiredAt, expiresAt: r.expiresAt } },
    );
  }

  private lost(r: LeaseRecord | null): ExporterError {
    return new ExporterError(
      'LEASE_LOST',
      `run ${this.runId} lost its lease on window ${this.ref.window.start}..${this.ref.window.end} ` +
        `(${r ? `now held by ${this.describe(r)}` : 'it was deleted'}); nothing more is committed by this run`,
    );
  }
}
