/**
 * The end of a run for its window: holding the lease (re-entered by run id, no waiting), merge the
 * run's outcomes into the window's manifest, remove the window's staging folder (whatever is there
 * belongs to this run or to a dead one), then release the lease.
 *
 * Merge rule: a succeeded report's entry is the one its commit wrote; a failed report replaces the
 * window's entry only when that entry is not `succeeded` — a failure never touches a good partition
 * (the parts were staged elsewhere), so its good entry stays. Reports this run did not export
 * (`run --report posts`) keep their entries. A run that cannot hold the lease (another run has the
 * window) writes only its own record.
 */
import type { Config } from '../config/schema';
import { ExporterError } from '../errors';
import { manifestKey, stagingPrefix } from '../export/keys';
import type { Log } from '../log';
import type { ManifestReport, RestatedWindow, Window } from '../manifest';
import type { Sink } from '../sink';
import { type LeaseOptions, WindowLease, WORKFLOW_LEASE } from './lease';
import { mergeReports, updateWindowManifest } from './window-manifest';

/** What closing needs of the run's plan (a `RunPlan` is one). */
export interface ClosingPlan {
  readonly runId: string;
  readonly scheduleId: string;
  readonly scheduledTime: string;
  readonly startedAt: string;
  readonly window: Window;
  /** Every (window, report) task; the windows other than `window` are the lookback's. */
  readonly tasks: readonly { readonly window: Window }[];
}

/** What closing does its work with (the run's `FinalizeDeps` are these and more). */
export interface CloseDeps {
  readonly sink: Sink;
  /** How the window's lease is held (default: the workflow's, `WORKFLOW_LEASE`). */
  readonly lease?: LeaseOptions;
  readonly log: Log;
  readonly now: () => Date;
}

/** Returns the window manifest's key. */
export async function closeWindow(
  config: Config,
  plan: ClosingPlan,
  reports: readonly ManifestReport[],
  deps: CloseDeps,
  /** The earlier windows this run re-exported (lookback), for the window's manifest too. */
  restated: readonly RestatedWindow[] = [],
): Promise<string> {
  const prefix = config.output.prefix;
  const key = manifestKey(prefix, plan.scheduleId, plan.window.end);
  let lease: WindowLease;
  try {
    lease = await WindowLease.acquire(
      deps.sink,
      { prefix, scheduleId: plan.scheduleId, window: plan.window },
      plan.runId,
      { ...(deps.lease ?? WORKFLOW_LEASE), waitMs: 0 },
      deps.now,
    );
  } catch (err: unknown) {
    if (!(err instanceof ExporterError && err.code === 'WINDOW_BUSY')) throw err;
    deps.log.warn('window manifest left as it is: another run holds the window', { reason: err.message });
    return key;
  }
  try {
    const order = config.schedules.find((s) => s.id === plan.scheduleId)?.reports.map((r) => r.id) ?? [];
    const manifest = await updateWindowManifest(deps.sink, key, (current) => {
      const kept = new Map((current?.reports ?? []).map((r) => [r.reportId, r]));
      const entries = reports.filter(
        (r) => r.status === 'succeeded' || kept.get(r.reportId)?.status !== 'succeeded',
      );
      return mergeReports(
        current,
        {
          scheduleId: plan.scheduleId,
          runId: plan.runId,
          scheduledTime: plan.scheduledTime,
          window: plan.window,
          startedAt: plan.startedAt,
          finishedAt: deps.now().toISOString(),
          ...(restated.length > 0 ? { restated: [...restated] } : {}),
        },
        entries,
        order,
      );
    });
    deps.log.info('manifest written', { key, status: manifest.status });
    const staged = await deps.sink.list(stagingPrefix(prefix, plan.scheduleId, plan.window.end));
    if (staged.length > 0) await deps.sink.deleteObjects(staged);
  } finally {
    await lease.release();
  }
  await releaseOtherWindows(config, plan, deps);
  return key;
}

/**
 * Tasks of other windows (a re-export of earlier windows in the same run) took those windows' leases
 * in their Export steps and committed their reports there; the run ends by removing their staging
 * and releasing their leases too. Merging those windows' failed reports is the caller's.
 */
async function releaseOtherWindows(config: Config, plan: ClosingPlan, deps: CloseDeps): Promise<void> {
  const prefix = config.output.prefix;
  const others = new Map(
    plan.tasks.filter((t) => t.window.end !== plan.window.end).map((t) => [t.window.end, t]),
  );
  for (const task of others.values()) {
    const ref = { prefix, scheduleId: plan.scheduleId, window: task.window };
    const options = { ...(deps.lease ?? WORKFLOW_LEASE), waitMs: 0 };
    const lease = await WindowLease.acquire(deps.sink, ref, plan.runId, options, deps.now).catch(() => null);
    if (!lease) continue; // held by another run: not ours to clean
    try {
      const staged = await deps.sink.list(stagingPrefix(prefix, plan.scheduleId, task.window.end));
      if (staged.length > 0) await deps.sink.deleteObjects(staged);
    } finally {
      await lease.release();
    }
  }
}
