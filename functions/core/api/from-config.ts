/** The client options a config's `api` section sets (CLI, demo and the Export Lambda share this). */
import type { Config } from '../config/schema';
import type { ApiClientOptions } from './client';

export type ConfiguredOptions = Pick<
  ApiClientOptions,
  | 'baseUrl'
  | 'arrayFormat'
  | 'tokenRequest'
  | 'cursorPath'
  | 'pageSize'
  | 'concurrency'
  | 'timeoutMs'
  | 'maxRetries'
  | 'maxResponseBytes'
>;

export function apiOptionsOf(api: Config['api']): ConfiguredOptions {
  return {
    baseUrl: api.baseUrl,
    arrayFormat: api.arrayFormat,
    tokenRequest: api.tokenRequest,
    cursorPath: api.cursorPath,
    pageSize: api.pageSize,
    concurrency: api.concurrency,
    timeoutMs: api.timeoutSeconds * 1000,
    maxRetries: api.maxRetries,
    maxResponseBytes: api.maxResponseMiB * 1024 * 1024,
  };
}
