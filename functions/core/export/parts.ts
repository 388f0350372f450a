/**
 * The open part of every format, and rolling to the next part. All formats roll together, so part N
 * of the CSV and part N of the Parquet hold the same rows. A part closes when it reaches the row bound
 * (`output.maxRowsPerPart`), the byte bound, or when a row group does not fit its fixed schema (drift);
 * the next part opens with the report's widened schema.
 */
import type { ManifestFile, Window } from '../manifest';
import type { ObjectWriter, Sink } from '../sink';
import { type ColumnDef, fits, type Kind } from './columns';
import { CsvPart } from './csv-part';
import { CONTENT_TYPES, type Format, partKey } from './keys';
import { ParquetPart } from './parquet';
import type { RowGroupBuffer } from './rowgroup';

interface OpenWriter {
  readonly format: Format;
  readonly key: string;
  readonly out: ObjectWriter;
  readonly part: CsvPart | ParquetPart;
}

interface OpenPart {
  readonly columns: readonly ColumnDef[];
  readonly writers: OpenWriter[];
  rows: number;
}

export interface PartLimits {
  readonly maxRows: number;
  readonly maxBytes: number;
}

export class PartSet {
  private open: OpenPart | null = null;

  constructor(
    private readonly sink: Sink,
    private readonly folders: Readonly<Partial<Record<Format, string>>>,
    private readonly formats: readonly Format[],
    private readonly limits: PartLimits,
    /** Index of the next part to open (continues across continuation steps). */
    public nextIndex: number,
  ) {}

  /** Rows in the open part (0 when none is open). */
  get openRows(): number {
    return this.open?.rows ?? 0;
  }

  /**
   * Writes a row group. `schema` is the report's (already widened) schema, used when a part has to
   * be opened; `kinds` are the group's own column kinds, checked against the open part's schema.
   */
  async writeGroup(
    group: RowGroupBuffer,
    kinds: ReadonlyMap<string, Kind>,
    schema: () => ColumnDef[],
    window: Window,
  ): Promise<ManifestFile[]> {
    const closed: ManifestFile[] = [];
    if (this.open && !fits(this.open.columns, kinds)) closed.push(...(await this.close()));
    const part = this.open ?? this.openPart(schema());
    await Promise.all(part.writers.map((w) => w.part.writeGroup(group, window)));
    part.rows += group.rows;
    const bytes = Math.max(...part.writers.map((w) => w.part.bytes));
    if (part.rows >= this.limits.maxRows || bytes >= this.limits.maxBytes)
      closed.push(...(await this.close()));
    return closed;
  }

  /** Closes the open part (if any) and returns its files. An empty run still gets one (empty) part. */
  async close(): Promise<ManifestFile[]> {
    const part = this.open;
    if (!part) return [];
    this.open = null;
    const files = await Promise.all(
      part.writers.map(async (w) => {
        await w.part.finish();
        const written = await w.out.close();
        return {
          format: w.format,
          key: written.key,
          bytes: written.bytes,
          rows: part.rows,
          sha256: written.sha256,
        };
      }),
    );
    return files;
  }

  /** Opens a part with no rows (so a report with zero rows still has readable files). */
  ensureOpen(schema: () => ColumnDef[]): void {
    if (!this.open) this.openPart(schema());
  }

  /** Abandons the open part: aborts every in-flight object. Never throws. */
  async abort(): Promise<void> {
    const part = this.open;
    this.open = null;
    if (part) await Promise.all(part.writers.map((w) => w.out.abort()));
  }

  private openPart(columns: ColumnDef[]): OpenPart {
    const index = this.nextIndex;
    this.nextIndex += 1;
    const writers = this.formats.map((format): OpenWriter => {
      const key = partKey(this.folders[format] ?? '', format, index);
      const out = this.sink.openWriter(key, CONTENT_TYPES[format]);
      const part = format === 'csv' ? new CsvPart(columns, out) : new ParquetPart(columns, out);
      return { format, key, out, part };
    });
    this.open = { columns, writers, rows: 0 };
    return this.open;
  }
}
