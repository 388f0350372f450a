/**
 * Finalize Lambda: wires the workflow's finalize (`#core/run/workflow-finalize`: outcomes from the
 * Map's results, manifests, summary emails, the `Report Export Completed` event, run metrics, Glue
 * tables, scratch clean-up) to S3, SES, SSM, EventBridge, CloudWatch metrics and Glue.
 */
import { createGlueCatalog } from '#adapters/glue-catalog';
import { createSsmParameterReader } from '#adapters/ssm-parameters';
import type { ParameterReader } from '#core/email/types';
import { ExporterError } from '#core/errors';
import { FinalizeInputSchema } from '#core/run/map-results';
import { finalizeWorkflowRun } from '#core/run/workflow-finalize';
import { completedDetail, publishCompleted } from './completed-event';
import { finalizeEnv } from './env';
import { exportSink, summaryMailer } from './io';
import { recordRun } from './run-metrics';
import { lambdaHandler, log, logger, runtimeConfig } from './wiring';

/**
 * `ssm:/path` recipient lists, read at send time (only Finalize carries the SSM client). For a config
 * that names no such list the CDK app defines `process.env.REPORT_EXPORTER_SSM_RECIPIENTS` as "none"
 * in the bundle (`SSM_RECIPIENTS_DEFINE`, infra/constructs/functions.ts): esbuild folds the test and
 * leaves the SSM client out, ~77 KiB that every cold start would compile for nothing.
 */
const readParameter: ParameterReader =
  process.env.REPORT_EXPORTER_SSM_RECIPIENTS === 'none' ? noRecipientParameters : createSsmParameterReader();

/** The reader of a bundle built for a config without `ssm:` recipient lists. */
async function noRecipientParameters(name: string): Promise<string> {
  throw new ExporterError(
    'EMAIL_FAILED',
    `cannot read the recipients from SSM parameter ${name}: this Finalize function was bundled for a config that names no ssm: recipient list; deploy again (cdk deploy) with the config that names it`,
  );
}

export interface FinalizeOutput {
  /** The window's manifest (merged with earlier runs of the window). */
  readonly manifestKey: string;
  /** This run's own record, beside the window's manifest. */
  readonly runRecordKey: string;
  readonly manifestLocation: string;
  readonly status: string;
  readonly emailed: number;
}

export const handler = lambdaHandler(
  async (event: unknown): Promise<FinalizeOutput> => {
    const input = FinalizeInputSchema.parse(event);
    const config = runtimeConfig();
    logger.appendKeys({ scheduleId: input.plan.scheduleId, runId: input.plan.runId });
    const env = finalizeEnv();
    const sink = exportSink(env.BUCKET_NAME);
    const { manifest, manifestKey, runRecordKey, emailed } = await finalizeWorkflowRun(config, input, {
      sink,
      mailer: summaryMailer(config),
      readParameter,
      log,
      now: () => new Date(),
      announce: (m, key) => publishCompleted(completedDetail(m, env.BUCKET_NAME, key), env.EVENT_BUS_NAME),
      recordRun,
      ...(env.GLUE_DATABASE === undefined ? {} : { catalog: createGlueCatalog(env.GLUE_DATABASE) }),
    });
    return {
      manifestKey,
      runRecordKey,
      manifestLocation: sink.locate(manifestKey),
      status: manifest.status,
      emailed,
    };
  },
  { metrics: true },
);
