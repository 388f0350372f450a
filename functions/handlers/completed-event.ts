/**
 * The `Report Export Completed` event on EventBridge, for downstream jobs: its detail names the
 * manifest's location and the run's status (nothing else is needed to find every file of the run),
 * and the earlier windows the run re-exported (lookback), so a job can reprocess exactly those
 * partitions: each with its updated manifest and the reports whose partition was replaced.
 * The client is created once per container; endpoint and region follow the SDK's own chain.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { Manifest } from '#core/manifest';

export const EVENT_SOURCE = 'report-exporter';
export const EVENT_DETAIL_TYPE = 'Report Export Completed';

export interface CompletedDetail {
  readonly scheduleId: string;
  readonly runId: string;
  readonly status: Manifest['status'];
  readonly window: Manifest['window'];
  readonly manifest: { readonly bucket: string; readonly key: string; readonly uri: string };
  readonly reports: { readonly succeeded: number; readonly failed: number };
  /** Earlier windows re-exported by lookback, newest first (empty without lookback). */
  readonly restated: readonly RestatedDetail[];
}

export interface RestatedDetail {
  readonly window: Manifest['window'];
  readonly manifest: { readonly bucket: string; readonly key: string; readonly uri: string };
  /** Reports whose partition of this window was replaced. */
  readonly reports: readonly string[];
  /** Reports whose re-export failed (their earlier partition stands). */
  readonly failed: readonly string[];
}

export function completedDetail(manifest: Manifest, bucket: string, key: string): CompletedDetail {
  const failed = manifest.reports.filter((r) => r.status === 'failed').length;
  return {
    scheduleId: manifest.scheduleId,
    runId: manifest.runId,
    status: manifest.status,
    window: manifest.window,
    manifest: { bucket, key, uri: `s3://${bucket}/${key}` },
    reports: { succeeded: manifest.reports.length - failed, failed },
    restated: (manifest.restated ?? []).map((w) => ({
      window: w.window,
      manifest: { bucket, key: w.manifestKey, uri: `s3://${bucket}/${w.manifestKey}` },
      reports: w.reports.filter((r) => r.status === 'succeeded').map((r) => r.reportId),
      failed: w.reports.filter((r) => r.status === 'failed').map((r) => r.reportId),
    })),
  };
}

let client: EventBridgeClient | undefined;

/** Puts the event on `eventBus` (the Finalize handler's `EVENT_BUS_NAME`). */
export async function publishCompleted(detail: CompletedDetail, eventBus: string): Promise<void> {
  client ??= new EventBridgeClient({});
  const out = await client.send(
    new PutEventsCommand({
      Entries: [
        {
          Source: EVENT_SOURCE,
          DetailType: EVENT_DETAIL_TYPE,
          Detail: JSON.stringify(detail),
          EventBusName: eventBus,
        },
      ],
    }),
  );
  if (out.FailedEntryCount) {
    throw new Error(`EventBridge refused the completion event: ${out.Entries?.[0]?.ErrorCode ?? 'unknown'}`);
  }
}
