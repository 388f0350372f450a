/**
 * Finalize as the deployed workflow runs it, after the Distributed Map: the task list and the Map's
 * results from S3 → outcomes (a caught failure, or a task without a result, becomes a `failed` row) →
 * manifests and summary emails (`finalizeRun`) → the `Report Export Completed` event and the run's
 * metrics, from the manifest `finalizeRun` returns (nothing is read back) → the catalog's tables →
 * the run's scratch objects in S3 (task list, Map results) removed. When only the email failed, all
 * of that still happens, then `EMAIL_FAILED` is thrown, so the execution fails and alarms.
 *
 * The order is the contract: data and manifests first, then what announces them, then the catalog,
 * and the clean-up last, so a failure late in the list fails the execution with the run's data
 * complete rather than leaving scratch objects behind unnoticed.
 */
import type { Config } from '../config/schema';
import { describeError } from '../errors';
import type { Catalog } from '../export/catalog';
import type { Manifest } from '../manifest';
import { syncCatalog } from './catalog-sync';
import { finalizeRun } from './finalize';
import { readMapResults, readTasks } from './map-items';
import { type FinalizeInput, toOutcomes } from './map-results';
import type { FinalizeDeps, FinalizeResult } from './types';

export interface WorkflowFinalizeDeps extends FinalizeDeps {
  /** Announces the run (EventBridge `Report Export Completed`) for the manifest at `manifestKey`. */
  readonly announce: (manifest: Manifest, manifestKey: string) => Promise<void>;
  /** Records the run's metrics. */
  readonly recordRun: (manifest: Manifest) => void;
  /** The catalog whose tables follow the column models; absent when the stack has none. */
  readonly catalog?: Catalog;
}

export async function finalizeWorkflowRun(
  config: Config,
  input: FinalizeInput,
  deps: WorkflowFinalizeDeps,
): Promise<Omit<FinalizeResult, 'emailError'>> {
  const { sink, log } = deps;
  const { plan: planned, results } = input;
  const { items, taskCount, ...rest } = planned;
  const plan = { ...rest, tasks: await readTasks(sink, items.key) };
  if (plan.tasks.length !== taskCount) {
    throw new Error(`the run's task list holds ${plan.tasks.length} tasks, the plan made ${taskCount}`);
  }
  // The Map failed as a whole: every task is reported failed, with the Map's error.
  const read =
    'error' in results
      ? { results: [], keys: [] }
      : await readMapResults(sink, results.ResultWriterDetails.Key);
  const noResult = 'error' in results ? results.error : undefined;
  const outcomes = toOutcomes(config, plan, read.results, noResult);
  const { emailError, ...result } = await finalizeRun(config, plan, outcomes, deps);
  await deps.announce(result.manifest, result.manifestKey);
  deps.recordRun(result.manifest);
  if (deps.catalog !== undefined) {
    try {
      const synced = await syncCatalog(config, result.manifest, sink, deps.catalog);
      log.info('catalog updated', {
        created: synced.created.join(',') || 'none',
        updated: synced.updated.join(',') || 'none',
      });
    } catch (err: unknown) {
      log.error('catalog update failed', { error: describeError(err) });
      throw err;
    }
  }
  await sink.deleteObjects([items.key, ...read.keys]);
  if (emailError) {
    // Data, manifests, event and catalog are done; the execution still fails, so the alarm fires.
    log.error('summary email not sent', { manifestKey: result.manifestKey, error: emailError.message });
    throw emailError;
  }
  return result;
}
