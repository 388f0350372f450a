/**
 * Parquet part writer on hyparquet-writer's columnar `ParquetWriter` (chosen by measurement, docs/export.md:
 * 55 KB, no native code or wasm, streams by row group, smallest Snappy output). Each buffered row group
 * is written as one Parquet row group; the writer's `flush()` hands the encoded bytes to the sink and
 * returns its promise, which hyparquet awaits — that is the back-pressure. Dictionary encoding is
 * chosen per column chunk by the library (kept where it at least halves the size, i.e. low-cardinality
 * strings such as platform or status).
 */
import type { ColumnChunk } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { writeColumn } from 'hyparquet-writer/src/column.js';
import { encodeNestedValues } from 'hyparquet-writer/src/dremel.js';
import { schemaPathResolver } from 'hyparquet-writer/src/schema.js';
import type { Window } from '../manifest';
import type { ObjectWriter } from '../sink';
import { columnCells, epochDay } from './cells';
import type { ColumnDef } from './columns';
import type { RowGroupBuffer } from './rowgroup';

type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number];
type ColumnData = Parameters<ParquetWriter['write']>[0]['columnData'][number]['data'];

function schemaElement(column: ColumnDef): SchemaElement {
  const base = { name: column.name, repetition_type: 'OPTIONAL' as const };
  switch (column.type) {
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
  }
}

function columnData(column: ColumnDef, group: RowGroupBuffer, window: Window): ColumnData {
  const cells = columnCells(group, column, window);
  switch (column.type) {
    case 'string':
      // usually every cell already is a string (or null): no copy then
      return cells.every((v) => v === null || typeof v === 'string')
        ? (cells as (string | null)[])
        : cells.map((v) => (v === null ? null : String(v)));
    case 'int64':
      return cells.map((v) => (typeof v === 'number' ? BigInt(v) : null));
    case 'double':
      return cells.every((v) => v === null || typeof v === 'number')
        ? (cells as (number | null)[])
        : cells.map((v) => (typeof v === 'number' ? v : null));
    case 'boolean':
      return cells.map((v) => (typeof v === 'boolean' ? v : null));
    case 'date':
      return cells.map((v) => (typeof v === 'string' ? epochDay(v) : null));
  }
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes one row group column by column, yielding to the event loop before each column, so page
 * responses that arrive meanwhile are handled (and the next page requested) within one column's
 * encode instead of after the whole row group's (measured: bench/RESULTS.md, I/O-bound). The bytes
 * are identical to `ParquetWriter.write` with one row group: this is its loop for a flat schema of
 * optional leaf columns with its defaults (statistics, offset index, 1 MiB pages, automatic
 * dictionary), built from the same hyparquet-writer 0.17 functions (`writeColumn`,
 * `encodeNestedValues`), and the row group is recorded in the writer as `write` records it.
 */
async function writeRowGroupByColumn(
  pw: ParquetWriter,
  resolvePath: ReturnType<typeof schemaPathResolver>,
  columns: readonly ColumnDef[],
  group: RowGroupBuffer,
  window: Window,
): Promise<void> {
  const startOffset = pw.writer.offset;
  const chunks: ColumnChunk[] = [];
  for (const c of columns) {
    await yieldToLoop();
    const path = resolvePath([c.name]);
    const schemaPath = path.map((node) => node.element);
    const element = schemaPath.at(-1);
    if (element === undefined) throw new Error(`parquet: no schema element for ${c.name}`);
    const result = writeColumn({
      writer: pw.writer,
      column: {
        columnName: c.name,
        element,
        schemaPath,
        codec: pw.codec,
        compressors: pw.compressors,
        stats: pw.statistics,
        statisticsTruncateLength: pw.statisticsTruncateLength,
        pageSize: 1_048_576,
        columnIndex: false,
        offsetIndex: true,
      },
      pageData: encodeNestedValues(path, columnData(c, group, window)),
    });
    chunks.push(result.chunk);
    pw.pendingIndexes.push(result);
  }
  let totalByteSize = 0n;
  for (const { meta_data } of chunks) totalByteSize += meta_data?.total_uncompressed_size ?? 0n;
  pw.num_rows += BigInt(group.rows);
  pw.row_groups.push({
    columns: chunks,
    total_byte_size: totalByteSize,
    num_rows: BigInt(group.rows),
    total_compressed_size: BigInt(pw.writer.offset - startOffset),
  });
  await pw.writer.flush?.();
}

/** A ByteWriter whose flush streams the bytes so far to the sink and resets the buffer. */
class SinkByteWriter extends ByteWriter {
  constructor(private readonly out: ObjectWriter) {
    super(1 << 20);
  }

  flush(): Promise<void> {
    const chunk = new Uint8Array(this.buffer, 0, this.index);
    this.index = 0;
    return chunk.byteLength === 0 ? Promise.resolve() : this.out.write(chunk);
  }

  override finish(): Promise<void> {
    return this.flush();
  }
}

export class ParquetPart {
  private readonly bytesOut: SinkByteWriter;
  private readonly writer: ParquetWriter;
  private readonly resolvePath: ReturnType<typeof schemaPathResolver>;

  constructor(
    private readonly columns: readonly ColumnDef[],
    out: ObjectWriter,
  ) {
    this.bytesOut = new SinkByteWriter(out);
    const schema: SchemaElement[] = [
      { name: 'root', num_children: columns.length },
      ...columns.map(schemaElement),
    ];
    this.resolvePath = schemaPathResolver(schema);
    this.writer = new ParquetWriter({
      writer: this.bytesOut,
      schema,
      codec: 'SNAPPY',
      createdBy: 'report-exporter',
    });
  }

  /** Bytes encoded so far (for the part's size bound). */
  get bytes(): number {
    return this.bytesOut.offset;
  }

  async writeGroup(group: RowGroupBuffer, window: Window): Promise<void> {
    if (group.rows === 0) return;
    await writeRowGroupByColumn(this.writer, this.resolvePath, this.columns, group, window);
  }

  /** Writes the footer and the last bytes. */
  async finish(): Promise<void> {
    await this.writer.finish();
  }
}
