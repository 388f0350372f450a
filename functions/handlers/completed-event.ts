/**
 * The `Report Export Completed` event on EventBridge, for downstream jobs: its detail names the
 * manifest's location and the run's status (nothing else is needed to find every file of the run).
 * The client is created once per container; endpoint and region follow the SDK's own chain.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { isExporterError } from '#core/errors';
import { type Manifest, ManifestSchema } from '#core/manifest';
import type { FinalizeResult } from '#core/run/types';
import type { Sink } from '#core/sink';

export const EVENT_SOURCE = 'report-exporter';
export const EVENT_DETAIL_TYPE = 'Report Export Completed';

export interface CompletedDetail {
  readonly scheduleId: string;
  readonly runId: string;
  readonly status: Manifest['status'];
  readonly window: Manifest['window'];
  readonly manifest: { readonly bucket: string; readonly key: string; readonly uri: string };
  readonly reports: { readonly succeeded: number; readonly failed: number };
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

/**
 * Runs `finalize` and announces the manifest it wrote. When only the email failed (the manifest is
 * already written), the event still goes out for downstream jobs before the error is rethrown, so
 * the execution fails and alarms.
 */
export async function finalizeAndAnnounce(
  finalize: () => Promise<FinalizeResult>,
  sink: Sink,
  to: { readonly bucket: string; readonly eventBus: string },
  manifestKey: string,
): Promise<FinalizeResult> {
  try {
    const result = await finalize();
    await publishCompleted(completedDetail(result.manifest, to.bucket, result.manifestKey), to.eventBus);
    return result;
  } catch (err: unknown) {
    if (isExporterError(err, 'EMAIL_FAILED')) {
      const body = await sink.getObject(manifestKey);
      const manifest = body ? ManifestSchema.parse(JSON.parse(new TextDecoder().decode(body))) : null;
      if (manifest) await publishCompleted(completedDetail(manifest, to.bucket, manifestKey), to.eventBus);
    }
    throw err;
  }
}
