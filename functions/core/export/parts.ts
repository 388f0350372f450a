/**
 * The open part of every format, and rolling to the next part. All formats roll together, so part N
 * of every format holds the same rows. A part closes when it reaches the row bound
 * (`output.maxRowsPerPart`), the byte bound, or when the column model grew (a new column, or the raw
 * companion of a column that met a value its type cannot hold); the next part opens with the whole
 * model, so every file's columns are a prefix of the report's model.
 */
import type { ManifestFile, Window } from '../manifest';
import type { ObjectWriter, Sink } from '../sink';
import type { ColumnDef } from './columns';
import { type EncoderOptions, FORMATS, type Format, type PartEncoder } from './formats';
import { partKey } from './keys';
import type { RowGroupBuffer } from './rowgroup';

interface OpenWriter {
  readonly format: Format;
  readonly key: string;
  readonly out: ObjectWriter;
  readonly part: PartEncoder;
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
    private readonly options: EncoderOptions = { formulaGuard: false },
  ) {}

  /** Rows in the open part (0 when none is open). */
  get openRows(): number {
    return this.open?.rows ?? 0;
  }

  /** Columns of the open part (null when none is open). */
  get openColumns(): readonly ColumnDef[] | null {
    return this.open?.columns ?? null;
  }

  /** Writes a row group with the model's `columns` (a part with fewer columns is closed first). */
  async writeGroup(
    group: RowGroupBuffer,
    columns: readonly ColumnDef[],
    window: Window,
  ): Promise<ManifestFile[]> {
    const closed: ManifestFile[] = [];
    if (this.open && this.open.columns.length !== columns.length) closed.push(...(await this.close()));
    const part = this.open ?? (await this.openPart(columns));
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
    return Promise.all(
      part.writers.map(async (w) => {
        await w.part.finish();
        const written = await w.out.close();
        return {
          format: w.format,
          key: written.key,
          bytes: written.bytes,
          rows: part.rows,
          sha256: written.sha256,
          columns: part.columns.length,
        };
      }),
    );
  }

  /** Opens a part with no rows (so a report with zero rows still has readable files). */
  async ensureOpen(columns: readonly ColumnDef[]): Promise<void> {
    if (!this.open) await this.openPart(columns);
  }

  /** Abandons the open part: aborts every in-flight object. Never throws. */
  async abort(): Promise<void> {
    const part = this.open;
    this.open = null;
    if (part) await Promise.all(part.writers.map((w) => w.out.abort()));
  }

  private async openPart(columns: readonly ColumnDef[]): Promise<OpenPart> {
    const index = this.nextIndex;
    this.nextIndex += 1;
    const factories = await Promise.all(this.formats.map((f) => FORMATS[f].load()));
    const writers = this.formats.map((format, i): OpenWriter => {
      const key = partKey(this.folders[format] ?? '', format, index);
      const out = this.sink.openWriter(key, FORMATS[format].contentType);
      const open = factories[i];
      if (open === undefined) throw new Error(`no encoder for ${format}`);
      return { format, key, out, part: open(columns, out, this.options) };
    });
    this.open = { columns, writers, rows: 0 };
    return this.open;
  }
}
