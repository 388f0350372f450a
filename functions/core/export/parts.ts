/**
 * The open part of every format, and rolling to the next part. All formats roll together, so part N
 * of every format holds the same rows. A part closes when it reaches the row bound
 * (`output.maxRowsPerPart`), the byte bound, or when the column model grew (a new column, or the raw
 * companion of a column that met a value its type cannot hold); the next part opens with the whole
 * model, so every file's columns are a prefix of the report's model.
 *
 * Encoding is pipelined: a row group is handed to the encoder stream and its bytes are written to the
 * sink when they come back, while the caller goes on buffering the next group. At most one group is
 * being encoded: the next `writeGroup` (or `close`) first waits for the previous group's bytes to be
 * written, so memory holds at most two row groups and the objects receive their bytes in order. The
 * byte bound is therefore checked before the next group (or at close) rather than right after a write.
 */
import type { ManifestFile, Window } from '../manifest';
import type { ObjectWriter, Sink } from '../sink';
import type { EncodedBytes, EncoderStream, PartSpec } from './encoder';
import { FORMATS, type Format } from './formats';
import { partKey } from './keys';
import type { ColumnDef } from './model';

interface OpenWriter {
  readonly format: Format;
  readonly key: string;
  readonly out: ObjectWriter;
  bytes: number;
}

interface OpenPart {
  readonly spec: PartSpec;
  readonly writers: OpenWriter[];
  rows: number;
}

export interface PartLimits {
  readonly maxRows: number;
  readonly maxBytes: number;
}

export class PartSet {
  private open: OpenPart | null = null;
  /** The previous group's encode-and-write, if still running (rejections surface on the next await). */
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly sink: Sink,
    private readonly stream: EncoderStream,
    private readonly folders: Readonly<Partial<Record<Format, string>>>,
    private readonly formats: readonly Format[],
    private readonly limits: PartLimits,
    private readonly window: Window,
    /** Index of the next part to open (continues across continuation steps). */
    public nextIndex: number,
    /** `output.csvFormulaGuard` */
    private readonly formulaGuard = false,
  ) {}

  /** Columns of the open part (null when none is open). */
  get openColumns(): readonly ColumnDef[] | null {
    return this.open?.spec.columns ?? null;
  }

  /** Rows in the open part (0 when none is open). */
  get openRows(): number {
    return this.open?.rows ?? 0;
  }

  /**
   * Encodes the stream's buffered row group (`rows` rows) into the open part. `columns` is the
   * report's model now: a part opened with fewer columns is closed first.
   */
  async writeGroup(rows: number, columns: readonly ColumnDef[]): Promise<ManifestFile[]> {
    await this.inFlight;
    const closed: ManifestFile[] = [];
    if (this.open && (this.open.spec.columns.length !== columns.length || this.overBytes(this.open)))
      closed.push(...(await this.close()));
    const part = this.open ?? this.openPart(columns);
    part.rows += rows;
    this.inFlight = this.stream.encode(part.spec).then((bytes) => this.put(part, bytes));
    this.inFlight.catch(() => undefined);
    if (part.rows >= this.limits.maxRows) closed.push(...(await this.close()));
    return closed;
  }

  /** Closes the open part (if any) and returns its files. */
  async close(): Promise<ManifestFile[]> {
    await this.inFlight;
    const part = this.open;
    if (!part) return [];
    this.open = null;
    await this.put(part, await this.stream.finish(part.spec));
    return Promise.all(
      part.writers.map(async (w) => {
        const written = await w.out.close();
        return {
          format: w.format,
          key: written.key,
          bytes: written.bytes,
          rows: part.rows,
          sha256: written.sha256,
          columns: part.spec.columns.length,
        };
      }),
    );
  }

  /** Opens a part with no rows (so a report with zero rows still has readable files). */
  ensureOpen(columns: readonly ColumnDef[]): void {
    if (!this.open) this.openPart(columns);
  }

  /** Abandons the open part: aborts every in-flight object. Never throws. */
  async abort(): Promise<void> {
    await this.inFlight.catch(() => undefined);
    const part = this.open;
    this.open = null;
    if (part) await Promise.all(part.writers.map((w) => w.out.abort()));
  }

  private overBytes(part: OpenPart): boolean {
    return part.writers.some((w) => w.bytes >= this.limits.maxBytes);
  }

  private async put(part: OpenPart, bytes: EncodedBytes): Promise<void> {
    await Promise.all(
      part.writers.map(async (w) => {
        for (const chunk of bytes[w.format] ?? []) {
          w.bytes += chunk.byteLength;
          await w.out.write(chunk);
        }
      }),
    );
  }

  private openPart(columns: readonly ColumnDef[]): OpenPart {
    const id = this.nextIndex;
    this.nextIndex += 1;
    const writers = this.formats.map((format): OpenWriter => {
      const key = partKey(this.folders[format] ?? '', format, id);
      return { format, key, out: this.sink.openWriter(key, FORMATS[format].contentType), bytes: 0 };
    });
    const spec = { id, columns, formats: this.formats, window: this.window, formulaGuard: this.formulaGuard };
    this.open = { spec, writers, rows: 0 };
    return this.open;
  }
}
