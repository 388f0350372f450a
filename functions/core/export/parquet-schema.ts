/**
 * The Parquet schema of a part (a flat list of OPTIONAL columns) and the parquet.thrift numbers the
 * encoder writes. The encoder itself is `parquet.ts`.
 */
import type { ColumnDef } from './model';

/** The column types this encoder writes: the column model's. */
export type ParquetType = ColumnDef['type'];

export type Physical = 'BOOLEAN' | 'INT32' | 'INT64' | 'DOUBLE' | 'BYTE_ARRAY';

/** The Parquet schema element of a column: every column is OPTIONAL (nulls are data). */
export function schemaElement(name: string, type: ParquetType) {
  const base = { name, repetition_type: 'OPTIONAL' as const };
  switch (type) {
    case 'string':
      return { ...base, type: 'BYTE_ARRAY' as const, converted_type: 'UTF8' as const };
    case 'int64':
      return { ...base, type: 'INT64' as const };
    case 'double':
      return { ...base, type: 'DOUBLE' as const };
    case 'boolean':
      return { ...base, type: 'BOOLEAN' as const };
    case 'date':
      return { ...base, type: 'INT32' as const, converted_type: 'DATE' as const };
    case 'timestamp':
      return {
        ...base,
        type: 'INT64' as const,
        converted_type: 'TIMESTAMP_MICROS' as const,
        logical_type: { type: 'TIMESTAMP' as const, isAdjustedToUTC: true, unit: 'MICROS' as const },
      };
  }
}

/** Options every part is written with. */
export const PARQUET_OPTIONS = { codec: 'SNAPPY', createdBy: 'report-exporter' } as const;

// Thrift enum values (parquet.thrift)
export const TYPE: Record<Physical, number> = { BOOLEAN: 0, INT32: 1, INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6 };
export const CONVERTED = { UTF8: 0, DATE: 6, TIMESTAMP_MICROS: 10 } as const;
export const OPTIONAL = 1;
export const PLAIN = 0;
export const RLE = 3;
export const RLE_DICTIONARY = 8;
export const DICTIONARY_PAGE = 2;
export const DATA_PAGE = 0;
export const SNAPPY = 1;
export const MAGIC = 0x31524150; // "PAR1"

/**
 * A data page holds at most this many rows: small enough that a page is written (and its values
 * dropped) about as each ~1,000-row slice arrives, so little is left when the row group is complete.
 */
export const PAGE_ROWS = 1_000;
/** A page holds at most about this many value bytes (a string counted by its UTF-16 length). */
export const PAGE_SIZE = 1_048_576;
/** Byte-array statistics are cut to this many bytes (a max rounded up). */
export const STATS_BYTES = 16;
