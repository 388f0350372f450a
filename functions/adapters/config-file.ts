/**
 * Reads `reports.yaml` from disk for the CLI and `cdk synth`; decoding (UTF-8, UTF-16, BOM), parsing
 * and validation are the core's.
 */
import { readFile } from 'node:fs/promises';
import { parseConfig } from '#core/config/load';
import type { Config } from '#core/config/schema';
import { decodeConfigText } from '#core/config/text';
import { ExporterError } from '#core/errors';

export async function loadConfig(path: string): Promise<Config> {
  return parseConfig(await readConfigText(path), path);
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
