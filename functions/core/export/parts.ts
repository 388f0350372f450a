/**
 * The open part of every format, and rolling to the next part. All formats roll together, so part N
 * of every format holds the same rows. A part closes when it reaches the row bound
 * (`output.maxRowsPerPart`), the byte bound, or when the column model grew (a new column, or the raw
 * companion of a column that met a value its type cannot hold); the next part opens with the whole
 * model, so every file's columns are a prefix of the report's model.
 *
 * The part a row group goes into is chosen when the group's first slice is sent (`append`): the open
 * part, unless the model grew or it reached the byte bound, then a new one. Each slice's CSV lines
 * come back from the encoder at once and are written as they come, so a row group's CSV is never held
 * whole; its Parquet column chunks are (a chunk is one contiguous run of pages), and are written when
 * the group is encoded (`writeGroup`).
 *
 * Writing is pipelined: bytes are written to the sink in the order they were asked for, one chain of
 * writes, while the caller goes on sending slices (at most `MAX_QUEUED_WRITES` writes wait before
 * `append` does). The next group's first slice (or `close`) waits for every earlier write, so the byte
 * bound is checked between groups rather than right after a write.
 */
import type { ManifestFile, Window } from '../manifest';
import type { ObjectWriter, Sink } from '../sink';
import type { EncodedBytes, EncoderStream, PartSpec, SliceSpec } from './encoder';
import { FORMATS, type Format } from './formats';
import { partKey } from './keys';
import type { ColumnDef } from './model';
import type { ColumnBatch } from './rowgroup';

/** Writes (a slice's CSV lines, a group's Parquet) that may wait in the chain before `append` waits. */
const MAX_QUEUED_WRITES = 8;

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
  /** The chain of writes asked for so far, in order (a rejection surfaces on the next await). */
  private inFlight: Promise<void> = Promise.resolve();
  private queued = 0;
  /** Whether a slice of the group being buffered was sent (its part is then chosen: the open one). */
  private grouping = false;

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
   * Sends a slice of the row group being buffered to the encoder stream, for the part the group goes
   * into (chosen at the group's first slice, `columns` being the report's model now), and writes its
   * CSV lines when they come back. Returns the files of a part it closed to open the next.
   */
  async append(
    batch: ColumnBatch,
    spec: SliceSpec | undefined,
    columns: readonly ColumnDef[],
  ): Promise<ManifestFile[]> {
    const closed = await this.begin(columns);
    this.grouping = true;
    const part = this.open as OpenPart;
    const sent = await this.stream.append(batch, spec, part.spec);
    this.write(part, sent.bytes);
    if (this.queued >= MAX_QUEUED_WRITES) await this.drain();
    return closed;
  }

  /**
   * Encodes the stream's buffered row group (`rows` rows, sent by `append`) into its part. Returns
   * the files of the parts it closed.
   */
  async writeGroup(rows: number, columns: readonly ColumnDef[]): Promise<ManifestFile[]> {
    const closed = await this.begin(columns);
    this.grouping = false;
    const part = this.open as OpenPart;
    part.rows += rows;
    this.write(part, this.stream.encode(part.spec));
    if (part.rows >= this.limits.maxRows) closed.push(...(await this.close()));
    return closed;
  }

  /**
   * The part of a row group, chosen when it begins (nothing to do once a slice of it was sent): the
   * open one, unless it has other columns than `columns` (the model grew) or reached the byte bound
   * (counted once every earlier write is done), then a new one. Returns the files of a part it closed.
   */
  private async begin(columns: readonly ColumnDef[]): Promise<ManifestFile[]> {
    if (this.grouping) return [];
    await this.drain();
    const closed: ManifestFile[] = [];
    if (this.open && (this.open.spec.columns.length !== columns.length || this.overBytes(this.open)))
      closed.push(...(await this.close()));
    if (this.open === null) this.openPart(columns);
    return closed;
  }

  /** Writes `bytes` to the part's objects once every write asked for before is done. */
  private write(part: OpenPart, bytes: Promise<EncodedBytes>): void {
    bytes.catch(() => undefined);
    this.queued += 1;
    this.inFlight = this.inFlight.then(async () => this.put(part, await bytes));
    this.inFlight.catch(() => undefined);
  }

  /** Waits for every write asked for (a failed one throws here). */
  private async drain(): Promise<void> {
    this.queued = 0;
    await this.inFlight;
  }

  /** Closes the open part (if any) and returns its files. */
  async close(): Promise<ManifestFile[]> {
    if (this.grouping) throw new Error('parts: a part was closed with a row group half sent to it');
    await this.drain();
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
    this.grouping = false;
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
