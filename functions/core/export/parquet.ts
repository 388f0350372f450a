/**
 * Parquet encoding of one part, on hyparquet-writer's public API only (`ParquetWriter`, `ByteWriter`;
 * chosen by measurement, docs/export.md: 55 KB, no native code or wasm, streams by row group, smallest
 * Snappy output). Each buffered row group is one `write({ columnData, rowGroupSize: rows })` call, so it becomes one
 * Parquet row group; the writer calls our `ByteWriter`'s `flush()` after it, which moves the bytes out,
 * so no more than one row group's bytes are ever held. Dictionary encoding, statistics (min/max/null
 * count) and the offset index are the library's defaults, decided per column chunk.
 *
 * This runs inside the encoder worker (see `encoder.ts`), so a long synchronous row group no longer
 * holds up the event loop that fetches pages. `test/core/export/parquet-golden.test.ts` checks that a
 * part written group by group is byte-identical to the library's `ParquetWriter` given the same rows.
 */
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { epochDay, epochMicros, type GroupCells } from './cells';
import type { ColumnDef } from './columns';
import type { Cell } from './flatten';
import type { PartEncoder } from './part-encoder';

type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number];
type ColumnData = Parameters<ParquetWriter['write']>[0]['columnData'][number]['data'];

/**
 * The column types this encoder writes. `timestamp` (ISO date-time text → INT64 microseconds since
 * the epoch, UTC) is accepted ahead of the column model using it.
 */
export type ParquetType = ColumnDef['type'] | 'timestamp';

/** The Parquet schema element of a column: every column is OPTIONAL (nulls are data). */
export function schemaElement(name: string, type: ParquetType): SchemaElement {
  const base = { name, repetition_type: 'OPTIONAL' as const };
  switch (type) {
    case 'string':
      return { ...base, type: 'BYTE_ARRAY', converted_type: 'UTF8' };
    case 'int64':
      return { ...base, type: 'INT64' };
    case 'double':
      return { ...base, type: 'DOUBLE' };
    case 'boolean':
      return { ...base, type: 'BOOLEAN' };
    case 'date':
      return { ...base, type: 'INT32', converted_type: 'DATE' };
    case 'timestamp':
      return {
        ...base,
        type: 'INT64',
        converted_type: 'TIMESTAMP_MICROS',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
      };
  }
}

function int64(v: Cell | bigint): bigint | null {
  if (typeof v === 'bigint') return v;
  return typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : null;
}

/** A column's cells as the values hyparquet-writer takes for its type (null stays null). */
export function parquetValues(type: ParquetType, cells: readonly (Cell | bigint)[]): ColumnData {
  switch (type) {
    case 'string':
      // usually every cell already is a string (or null): no copy then
      return cells.every((v) => v === null || typeof v === 'string')
        ? (cells as (string | null)[])
        : cells.map((v) => (v === null ? null : String(v)));
    case 'int64':
      return cells.map(int64);
    case 'double':
      return cells.every((v) => v === null || typeof v === 'number')
        ? (cells as (number | null)[])
        : cells.map((v) => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null));
    case 'boolean':
      return cells.map((v) => (typeof v === 'boolean' ? v : null));
    case 'date':
      return cells.map((v) => (typeof v === 'string' ? epochDay(v) : null));
    case 'timestamp':
      // a timestamp column holds only zoned ISO date-times (the column model's rule, temporal.ts)
      return cells.map((v) => (typeof v === 'string' ? epochMicros(v) : null));
  }
}

/** Collects what the writer produced since the last `take()`; each chunk owns its buffer (transferable). */
class ChunkWriter extends ByteWriter {
  private readonly chunks: Uint8Array[] = [];

  constructor() {
    super(1 << 20);
  }

  flush(): void {
    if (this.index === 0) return;
    this.chunks.push(new Uint8Array(this.buffer.slice(0, this.index)));
    this.index = 0;
  }

  override finish(): void {
    this.flush();
  }

  take(): Uint8Array[] {
    this.flush();
    return this.chunks.splice(0);
  }
}

/** Options every part is written with (the library's defaults, named). */
export const PARQUET_OPTIONS = { codec: 'SNAPPY', createdBy: 'report-exporter' } as const;

export class ParquetEncoder implements PartEncoder {
  private readonly out = new ChunkWriter();
  private readonly writer: ParquetWriter;

  constructor(private readonly columns: readonly ColumnDef[]) {
    this.writer = new ParquetWriter({
      writer: this.out,
      schema: [
        { name: 'root', num_children: columns.length },
        ...columns.map((c) => schemaElement(c.name, c.type)),
      ],
      ...PARQUET_OPTIONS,
    });
  }

  group(group: GroupCells): Uint8Array[] {
    if (group.rows > 0) {
      const columnData = this.columns.map((c) => ({
        name: c.name,
        data: parquetValues(c.type, group.of(c)),
      }));
      // a Writer whose flush() returns nothing makes write() synchronous
      void this.writer.write({ columnData, rowGroupSize: group.rows });
    }
    return this.out.take();
  }

  finish(): Uint8Array[] {
    void this.writer.finish();
    return this.out.take();
  }
}
