/**
 * Reads `reports.yaml` from disk for the CLI and `cdk synth`; decoding (UTF-8, UTF-16, BOM), parsing
 * and validation are the core's. The parser and the schema are imported only when a config is
 * parsed: a start whose config the cache holds (./config-cache.ts) never loads them.
 */
import { readFile } from 'node:fs/promises';
import type { Config } from '#core/config/schema';
import { decodeConfigText } from '#core/config/text';
import { ExporterError } from '#core/errors';
import type { ConfigCache } from './config-cache';

/** The validated config of the file at `path`: from `cache` when it holds this text, else parsed. */
export async function loadConfig(path: string, cache?: ConfigCache): Promise<Config> {
  const text = await readConfigText(path);
  const kept = await cache?.get(text);
  if (kept !== undefined) return kept;
  const { parseConfig } = await import('#core/config/load');
  const config = parseConfig(text, path);
  await cache?.put(text, config);
  return config;
}

/** The config file's text, decoded; CONFIG_NOT_FOUND naming the path when it cannot be read. */
export async function readConfigText(path: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (err: unknown) {
    throw new ExporterError(
      'CONFIG_NOT_FOUND',
      `cannot read config "${path}": ${(err as NodeJS.ErrnoException).code ?? 'error'}; pass --config PATH`,
      { cause: err },
    );
  }
  return decodeConfigText(bytes, path);
}
