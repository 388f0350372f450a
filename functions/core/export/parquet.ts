/**
 * Parquet part writer on hyparquet-writer's columnar `ParquetWriter` (chosen in research/parquet.md:
 * 55 KB, no native code or wasm, streams by row group, smallest Snappy output). Each buffered row group
 * is written as one Parquet row group; the writer's `flush()` hands the encoded bytes to the sink and
 * returns its promise, which hyparquet awaits — that is the back-pressure. Dictionary encoding is
 * chosen per column chunk by the library (kept where it at least halves the size, i.e. low-cardinality
 * strings such as platform or status).
 */
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
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
      return cells.map((v) => (v === null ? null : String(v)));
    case 'int64':
      return cells.map((v) => (typeof v === 'number' ? BigInt(v) : null));
    case 'double':
      return cells.map((v) => (typeof v === 'number' ? v : null));
    case 'boolean':
      return cells.map((v) => (typeof v === 'boolean' ? v : null));
    case 'date':
      return cells.map((v) => (typeof v === 'string' ? epochDay(v) : null));
  }
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

  constructor(
    private readonly columns: readonly ColumnDef[],
    out: ObjectWriter,
  ) {
    this.bytesOut = new SinkByteWriter(out);
    const schema: SchemaElement[] = [
      { name: 'root', num_children: columns.length },
      ...columns.map(schemaElement),
    ];
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
    const data = this.columns.map((c) => ({ name: c.name, data: columnData(c, group, window) }));
    await this.writer.write({ columnData: data, rowGroupSize: group.rows });
  }

  /** Writes the footer and the last bytes. */
  async finish(): Promise<void> {
    await this.writer.finish();
  }
}
