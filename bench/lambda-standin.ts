/**
 * Stand-in for the export Lambda, bundled by the benchmark only while functions/handlers/*.ts does not
 * exist yet: it imports the same core and adapter modules an export handler needs (config, API client,
 * credentials, S3 sink, export step, Powertools logger) so the bundle size and module-init time are
 * representative.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { createCredentialsProvider } from '#adapters/credentials';
import { createS3Sink } from '#adapters/s3-sink';
import { createApiClient } from '#core/api/client';
import { parseConfig } from '#core/config/load';
import type { Log } from '#core/log';
import { exportReportStep } from '#core/run/export-step';
import type { ExportStepResult, ReportTask } from '#core/run/types';
import { createHttp } from '#http';

const logger = new Logger({ serviceName: 'report-exporter' });
const log: Log = {
  debug: (message, fields) => logger.debug(message, { ...fields }),
  info: (message, fields) => logger.info(message, { ...fields }),
  warn: (message, fields) => logger.warn(message, { ...fields }),
  error: (message, fields) => logger.error(message, { ...fields }),
};

export async function handler(event: { task: ReportTask; configYaml: string }): Promise<ExportStepResult> {
  const config = parseConfig(event.configYaml);
  const api = createApiClient({
    http: createHttp,
    baseUrl: config.api.baseUrl,
    credentials: createCredentialsProvider(config.api.credentialsSecret),
  });
  return exportReportStep(config, event.task, null, {
    api,
    sink: createS3Sink(process.env.BUCKET ?? 'bucket'),
    log,
  });
}
