/**
 * The one registry of output formats. A format is one entry here: its file extension, content type
 * and how to open a part encoder (loaded on first use, so the config schema and the catalog can list
 * the formats without loading any encoder). An id that is not in the registry is rejected by the
 * config schema and by `formatSpec` — nothing is ever written in a format that was not asked for.
 * Adding a format: one file exporting a `PartEncoderFactory`, plus one entry below.
 */
import type { Window } from '../manifest';
import type { ObjectWriter } from '../sink';
import type { ColumnDef } from './columns';
import type { RowGroupBuffer } from './rowgroup';

/** One part file being encoded. */
export interface PartEncoder {
  /** Bytes encoded so far (for the part's size bound). */
  readonly bytes: number;
  writeGroup(group: RowGroupBuffer, window: Window): Promise<void>;
  /** Writes the trailer (footer / header of an empty file); the caller closes the object. */
  finish(): Promise<void>;
}

export interface EncoderOptions {
  /** Prefix text cells that a spreadsheet would run as a formula (CSV only; docs/export.md). */
  readonly formulaGuard: boolean;
}

export type PartEncoderFactory = (
  columns: readonly ColumnDef[],
  out: ObjectWriter,
  options: EncoderOptions,
) => PartEncoder;

export interface FormatSpec {
  /** File name ending of a part, without the dot. */
  readonly extension: string;
  readonly contentType: string;
  /** Whether the catalog gets a table for this format (docs/export.md "Catalog"). */
  readonly catalog: boolean;
  readonly load: () => Promise<PartEncoderFactory>;
}

export const FORMAT_IDS = ['parquet', 'csv', 'jsonl'] as const;
export type Format = (typeof FORMAT_IDS)[number];

export const FORMATS: Readonly<Record<Format, FormatSpec>> = {
  parquet: {
    extension: 'parquet',
    contentType: 'application/vnd.apache.parquet',
    catalog: true,
    load: async () => (await import('./parquet-format')).openParquetPart,
  },
  csv: {
    extension: 'csv',
    contentType: 'text/csv; charset=utf-8',
    catalog: false,
    load: async () => (await import('./csv-part')).openCsvPart,
  },
  jsonl: {
    extension: 'jsonl.gz',
    contentType: 'application/x-ndjson',
    catalog: false,
    load: async () => (await import('./jsonl')).openJsonlPart,
  },
};

export function isFormat(id: string): id is Format {
  return (FORMAT_IDS as readonly string[]).includes(id);
}

/** The registry entry of a format; an unknown id is a programming error, never a silent default. */
export function formatSpec(id: string): FormatSpec {
  if (!isFormat(id)) throw new Error(`unknown output format "${id}" (known: ${FORMAT_IDS.join(', ')})`);
  return FORMATS[id];
}
