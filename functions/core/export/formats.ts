/**
 * The one list of output formats and what the rest of the product needs to know about each: its
 * file extension, content type, and whether the catalog gets a table for it. Its encoder is the same
 * id's entry in `PART_ENCODERS` (part-encoder.ts, loaded only where rows are encoded); both are typed
 * over `Format`, so a format cannot be listed here without an encoder, nor encoded without being
 * listed. An id that is not here is rejected by the config schema and by `formatSpec` — nothing is
 * ever written in a format that was not asked for. Adding a format: one file with its encoder, plus
 * its entry here and in `PART_ENCODERS`.
 */
export const FORMAT_IDS = ['parquet', 'csv', 'jsonl'] as const;
export type Format = (typeof FORMAT_IDS)[number];

export interface FormatSpec {
  /** File name ending of a part, without the dot. */
  readonly extension: string;
  readonly contentType: string;
  /** Whether the catalog gets a table for this format (docs/export.md "Catalog"). */
  readonly catalog: boolean;
}

export const FORMATS: Readonly<Record<Format, FormatSpec>> = {
  parquet: { extension: 'parquet', contentType: 'application/vnd.apache.parquet', catalog: true },
  csv: { extension: 'csv', contentType: 'text/csv; charset=utf-8', catalog: false },
  jsonl: { extension: 'jsonl.gz', contentType: 'application/x-ndjson', catalog: false },
};

export function isFormat(id: string): id is Format {
  return (FORMAT_IDS as readonly string[]).includes(id);
}

/** The registry entry of a format; an unknown id is a programming error, never a silent default. */
export function formatSpec(id: string): FormatSpec {
  if (!isFormat(id)) throw new Error(`unknown output format "${id}" (known: ${FORMAT_IDS.join(', ')})`);
  return FORMATS[id];
}
