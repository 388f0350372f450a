/**
 * Where the CLI keeps the metric names the API named in a 400 (`.report-exporter/known-metrics.json`
 * beside the config file, so `validate -c FILE` finds what `run -c FILE` learned), and where
 * `validate --manifest` reads a run's manifest from (a local file, or `s3://bucket/key` with the
 * usual AWS credentials). The merging and the names themselves are the core's.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  type KnownMetricsFile,
  KnownMetricsFileSchema,
  type ValidSet,
  validSetsOf,
  withValidSets,
} from '#core/config/known-metrics';
import { ExporterError } from '#core/errors';
import { ManifestSchema } from '#core/manifest';

/** `.report-exporter/known-metrics.json` in the config file's folder. */
export function knownMetricsPath(configPath: string): string {
  return join(dirname(configPath), '.report-exporter', 'known-metrics.json');
}

/** The file's content; null when it is absent or not ours (it only ever feeds warnings). */
export async function readKnownMetrics(path: string): Promise<KnownMetricsFile | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = KnownMetricsFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Adds `sets` to the file (created with its folder when absent); replaced whole, by rename. */
export async function saveValidSets(
  path: string,
  sets: readonly ValidSet[],
  now = new Date(),
): Promise<void> {
  const next = withValidSets(await readKnownMetrics(path), sets, now);
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(next, null, 2)}\n`);
  await rename(temp, path);
}

const S3_URL = /^s3:\/\/([^/]+)\/(.+)$/;

/** The valid sets a run's manifest recorded; `source` is a file path or `s3://bucket/key`. */
export async function manifestValidSets(source: string): Promise<ValidSet[]> {
  const s3 = S3_URL.exec(source);
  let text: string;
  try {
    if (s3) {
      // the AWS SDK only for an s3:// manifest: loading it is ~0.1 s of every run's start
      const { createS3Sink } = await import('./s3-sink');
      const body = await createS3Sink(s3[1] ?? '').getObject(s3[2] ?? '');
      if (body === null) throw new Error('no such object');
      text = new TextDecoder().decode(body);
    } else {
      text = await readFile(source, 'utf8');
    }
  } catch (err: unknown) {
    throw new ExporterError(
      'USAGE',
      `--manifest "${source}": cannot read it (${err instanceof Error ? err.message : String(err)})`,
      { cause: err },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) throw new ExporterError('USAGE', `--manifest "${source}" is not a run manifest`);
  return validSetsOf([parsed.data]);
}
