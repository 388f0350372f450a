/**
 * Parquet encoding of one part: our own encoder for the one shape the export writes, a flat schema of
 * OPTIONAL columns, written row group by row group. It makes most of the choices hyparquet-writer's
 * public `ParquetWriter` makes for such a file (a dictionary page when the dictionary at least halves
 * the plain bytes, statistics with 16-byte string bounds, an offset index for chunks of several
 * pages, Snappy), and `test/core/export/parquet-golden.test.ts` holds DuckDB's reading of our file to
 * its reading of the library's; where it differs (v1 data pages of at most 1,000 rows, written as the
 * rows arrive: `parquet-chunk.ts`) it is so that little is left to do after a report's last page.
 * It works from the column's cells directly: strings are written as UTF-8 straight into the page,
 * definition levels and indexes are typed arrays.
 *
 * This runs inside the encoder worker (see `encoder.ts`), so a long row group never holds up the event
 * loop that fetches pages. docs/performance.md has the measurements behind owning it.
 *
 * By concern: `parquet-schema.ts` (schema and thrift numbers), `parquet-values.ts` (values and
 * dictionary), `parquet-stats.ts` (statistics), `parquet-chunk.ts` (one column chunk, page by page),
 * `parquet-pages.ts` (one page),
 * `parquet-bytes.ts` (byte sink, thrift compact protocol, RLE hybrid); this file: row groups, offset
 * indexes and the footer.
 */
import type { ColumnDef } from './model';
import { ByteSink, Compact } from './parquet-bytes';
import { ColumnChunk } from './parquet-chunk';
import type { Chunk } from './parquet-pages';
import {
  CONVERTED,
  DATA_PAGE,
  DICTIONARY_PAGE,
  MAGIC,
  OPTIONAL,
  PARQUET_OPTIONS,
  PLAIN,
  SNAPPY,
  schemaElement,
  TYPE,
} from './parquet-schema';
import type { ColumnCells, GroupAhead, PartEncoder } from './part-encoder';

/** The module's public face: the schema a part is written with, beside the encoder. */
export { PARQUET_OPTIONS, type ParquetType, schemaElement } from './parquet-schema';

/** What the footer records of a row group besides its chunks. */
interface GroupTotals {
  readonly rows: number;
  readonly uncompressed: number;
  readonly compressed: number;
}

export class ParquetEncoder implements PartEncoder {
  private readonly out = new ByteSink(1 << 20);
  private readonly groups: GroupTotals[] = [];
  /**
   * What the footer and the offset indexes need of each column chunk, encoded when its row group is
   * written rather than kept as objects until the part ends: a part of 1M rows has 40 row groups of
   * one chunk per column, each of ~25 pages, and their page objects were what a long export's heap
   * kept growing with until the part closed (docs/performance.md, "Memory from 300k to 3M rows").
   * Chunk k's footer fields before its offset index (file_offset, meta_data) end at `metaEnds[k]` in
   * `chunkMeta`; its offset index (a chunk of several pages has one) ends at `indexEnds[k]` in
   * `offsetIndexes`, written as one run before the footer. Each starts where the previous chunk's ends.
   */
  private readonly chunkMeta = new ByteSink(1 << 12);
  private readonly metaEnds: number[] = [];
  private readonly offsetIndexes = new ByteSink(1 << 12);
  private readonly indexEnds: number[] = [];
  /** Bytes handed out so far: the file offset of `out`'s first byte. */
  private written = 0;

  constructor(private readonly columns: readonly ColumnDef[]) {
    this.out.u32(MAGIC);
  }

  group(group: ColumnCells): Uint8Array[] {
    return this.write(group.rows, (c) => {
      const chunk = new ColumnChunk(c);
      chunk.add(group.of(c));
      return chunk;
    });
  }

  /** A group whose column chunks were written page by page as its rows arrived (`parquet-chunk.ts`). */
  encodedAhead({ parquet }: GroupAhead, rows: number): Uint8Array[] | undefined {
    if (parquet === null) return undefined;
    return this.write(rows, (_, i) => parquet[i] as ColumnChunk);
  }

  /**
   * The group's bytes, one array per column chunk (after the file's magic, before the first group):
   * not one array of the whole group (~1.3 MB at 25k rows), whose allocation each group left the
   * process's memory more fragmented the longer an export ran (docs/performance.md).
   */
  private write(rows: number, chunk: (column: ColumnDef, i: number) => ColumnChunk): Uint8Array[] {
    const out = this.take();
    if (rows > 0) {
      let compressed = 0;
      let uncompressed = 0;
      this.columns.forEach((c, i) => {
        const written = chunk(c, i).write(this.out, this.written);
        compressed += this.out.length;
        uncompressed += written.uncompressed;
        this.record(written);
        out.push(...this.take());
      });
      this.groups.push({ rows, uncompressed, compressed });
    }
    return out;
  }

  /** Encodes what the footer and the offset index need of a chunk (`chunkMeta`, `offsetIndexes`). */
  private record(k: Chunk): void {
    if (k.pages.length > 1)
      new Compact(this.offsetIndexes).inStruct((c) =>
        c.listStruct(1, k.pages, (c, p) => c.i64(1, p.offset).i32(2, p.size).i64(3, p.firstRow)),
      );
    this.indexEnds.push(this.offsetIndexes.length);
    const c = new Compact(this.chunkMeta);
    c.i64(2, k.fileOffset);
    c.struct(3, (c) => {
      c.i32(1, TYPE[k.physical])
        .listI32(2, k.encodings)
        .listBinary(3, [k.name])
        .i32(4, SNAPPY)
        .i64(5, k.values)
        .i64(6, k.uncompressed)
        .i64(7, k.compressed)
        .i64(9, k.dataOffset)
        .i64(11, k.dictionaryOffset);
      const s = k.statistics;
      c.struct(12, (c) =>
        c
          .i64(3, s.nulls)
          .binary(5, s.max?.bytes)
          .binary(6, s.min?.bytes)
          .bool(7, s.max?.exact)
          .bool(8, s.min?.exact)
          .i64(9, s.nans),
      );
      const stats: [number, number, number][] = [];
      if (k.dictionaryOffset !== undefined) stats.push([DICTIONARY_PAGE, PLAIN, 1]);
      for (const [encoding, count] of k.pageEncodings) stats.push([DATA_PAGE, encoding, count]);
      c.listStruct(13, stats, (c, [type, encoding, count]) => c.i32(1, type).i32(2, encoding).i32(3, count));
    });
    this.metaEnds.push(this.chunkMeta.length);
  }

  finish(): Uint8Array[] {
    const out = this.out;
    const indexesAt = this.written + out.length;
    out.bytes(this.offsetIndexes.view());
    const footerAt = out.length;
    this.footer(new Compact(out), indexesAt);
    out.u32(out.length - footerAt);
    out.u32(MAGIC);
    return this.take();
  }

  private take(): Uint8Array[] {
    if (this.out.length === 0) return [];
    const bytes = this.out.take();
    this.written += bytes.length;
    return [bytes];
  }

  /** The footer; `indexesAt` is the file offset of the first offset index. */
  private footer(thrift: Compact, indexesAt: number): void {
    const meta = this.chunkMeta.view();
    thrift.inStruct((c) => {
      c.i32(1, 2);
      c.listStruct(2, [undefined, ...this.columns], (c, col) => {
        if (col === undefined) {
          c.binary(4, 'root').i32(5, this.columns.length);
          return;
        }
        const el = schemaElement(col.name, col.type);
        c.i32(1, TYPE[el.type]).i32(3, OPTIONAL).binary(4, el.name);
        if ('converted_type' in el) c.i32(6, CONVERTED[el.converted_type]);
        if ('logical_type' in el)
          // TIMESTAMP(isAdjustedToUTC = true, unit = MICROS)
          c.struct(10, (c) => c.struct(8, (c) => c.bool(1, true).struct(2, (c) => c.struct(2, () => {}))));
      });
      c.i64(
        3,
        this.groups.reduce((sum, g) => sum + g.rows, 0),
      );
      let k = 0;
      c.listStruct(4, this.groups, (c, group) => {
        c.listStruct(1, this.columns, (c) => {
          // fields 2 (file_offset) and 3 (meta_data), as `record` encoded them
          c.encoded(meta.subarray(this.metaEnds[k - 1] ?? 0, this.metaEnds[k]), 3);
          const start = this.indexEnds[k - 1] ?? 0;
          const end = this.indexEnds[k] as number;
          if (end > start) c.i64(4, indexesAt + start).i32(5, end - start);
          k += 1;
        });
        c.i64(2, group.uncompressed).i64(3, group.rows).i64(6, group.compressed);
      });
      c.binary(6, PARQUET_OPTIONS.createdBy);
      c.listStruct(7, this.columns, (c) => c.struct(1, () => {}));
    });
  }
}
