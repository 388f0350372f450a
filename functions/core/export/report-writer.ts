/**
 * Everything one report accumulates while its pages stream through: the running schema, totals, top N
 * and the part files. `snapshot()` is the resumable state; constructing from a snapshot continues
 * exactly where it left off (next part index included).
 *
 * Rows are flattened here, on the thread that fetches pages, into small slices (`SLICE_ROWS`); each
 * slice updates the schema, totals and top N and is then sent to the encoder stream, which buffers the
 * row group and encodes it (in a worker thread when the encoder is the worker pool). So this thread
 * never holds a whole row group, and never encodes one.
 */

import type { ApiRow } from '../api/types';
import type { ManifestFile, Window } from '../manifest';
import type { CheckpointState } from '../run/checkpoint';
import type { SummaryRow } from '../run/types';
import type { Sink } from '../sink';
import { type ColumnDef, joinKind, type Kind } from './columns';
import { type Encoder, type EncoderStream, inlineEncoder } from './encoder';
import type { Format } from './keys';
import { PartSet } from './parts';
import { RowGroupBuffer } from './rowgroup';
import { SchemaState } from './schema';
import { TopN } from './top';
import { Totals } from './totals';

export interface ReportWriterOptions {
  readonly sink: Sink;
  readonly window: Window;
  readonly formats: readonly Format[];
  readonly folders: Readonly<Partial<Record<Format, string>>>;
  readonly idFields: readonly string[];
  readonly metrics: readonly string[];
  readonly topBy: string | undefined;
  readonly topN: number;
  /** Keep the first `topN` rows in arrival order instead of ranking (the email's trend of an over-time report). */
  readonly inOrder?: boolean;
  readonly rowGroupRows: number;
  readonly maxRowsPerPart: number;
  readonly maxPartBytes: number;
  /** Where row groups are encoded; default: on this thread (`inlineEncoder`). */
  readonly encoder?: Encoder;
}

/** Rows per slice sent to the encoder: about one page, so each send is short. */
const SLICE_ROWS = 1_000;

export type WriterState = Omit<CheckpointState, 'version' | 'cursor' | 'pages'>;

export class ReportWriter {
  private slice = new RowGroupBuffer();
  private groupRows = 0;
  private groupKinds = new Map<string, Kind>();
  private readonly stream: EncoderStream;
  private readonly schema: SchemaState;
  private readonly totals: Totals;
  private readonly top: TopN;
  private readonly parts: PartSet;
  private readonly files: ManifestFile[];
  rows: number;

  constructor(
    private readonly o: ReportWriterOptions,
    from?: WriterState,
  ) {
    this.schema = new SchemaState(o.idFields, o.metrics, from?.schema);
    this.totals = new Totals(from?.totals);
    this.top = new TopN(o.topBy === undefined && !o.inOrder ? 0 : o.topN, from?.top ?? []);
    this.stream = (o.encoder ?? inlineEncoder()).open();
    this.parts = new PartSet(
      o.sink,
      this.stream,
      o.folders,
      o.formats,
      { maxRows: o.maxRowsPerPart, maxBytes: o.maxPartBytes },
      o.window,
      from?.nextPart ?? 0,
    );
    this.files = [...(from?.files ?? [])];
    this.rows = from?.rows ?? 0;
  }

  /** Buffers a row; writes the row group when it is full (or would overfill the open part). */
  async add(row: ApiRow): Promise<void> {
    this.slice.addRow(row);
    this.rows += 1;
    this.groupRows += 1;
    const room = Math.min(this.o.rowGroupRows, this.o.maxRowsPerPart - this.parts.openRows);
    if (this.groupRows >= room) await this.flush();
    else if (this.slice.rows >= SLICE_ROWS) await this.send();
  }

  /** Writes the buffered rows (if any) into the open part. */
  async flush(): Promise<void> {
    await this.send();
    if (this.groupRows === 0) return;
    const rows = this.groupRows;
    const kinds = this.groupKinds;
    this.groupRows = 0;
    this.groupKinds = new Map();
    this.files.push(...(await this.parts.writeGroup(rows, kinds, () => this.schema.columns())));
  }

  /** Takes the slice into the schema, totals and top N, and sends it to the encoder's row group. */
  private async send(): Promise<void> {
    const slice = this.slice;
    if (slice.rows === 0) return;
    this.slice = new RowGroupBuffer();
    const kinds = slice.kinds();
    this.schema.absorb(slice, kinds);
    for (const [name, kind] of kinds)
      this.groupKinds.set(name, joinKind(this.groupKinds.get(name) ?? 'null', kind));
    for (const [name, cells] of slice.metrics) this.totals.addColumn(name, cells);
    this.rank(slice);
    await this.stream.append(slice.batch());
  }

  /** Flushes and closes the open part (continuation point, or the end). */
  async closePart(): Promise<void> {
    await this.flush();
    this.files.push(...(await this.parts.close()));
  }

  /** Ends the export: a report with no rows at all still gets one part (header / schema only). */
  async finish(): Promise<ManifestFile[]> {
    await this.flush();
    if (this.files.length === 0) this.parts.ensureOpen(() => this.schema.columns());
    await this.closePart();
    return this.files;
  }

  async abort(): Promise<void> {
    await this.parts.abort();
    this.release();
  }

  /** Frees the encoder's state for this report (after `finish`, a continuation, or `abort`). */
  release(): void {
    this.stream.close();
  }

  columns(): ColumnDef[] {
    return this.schema.columns();
  }

  /** Totals of the additive metrics whose column is numeric. */
  totalsResult(): Record<string, number> {
    const numeric = new Set(
      this.columns()
        .filter((c) => c.role === 'metric' && (c.type === 'int64' || c.type === 'double'))
        .map((c) => c.name),
    );
    return Object.fromEntries(Object.entries(this.totals.result()).filter(([name]) => numeric.has(name)));
  }

  topRows(): SummaryRow[] {
    return this.top.sorted().map((e) => e.row);
  }

  writtenFiles(): readonly ManifestFile[] {
    return this.files;
  }

  snapshot(): WriterState {
    return {
      nextPart: this.parts.nextIndex,
      files: [...this.files],
      rows: this.rows,
      schema: this.schema.snapshot(),
      totals: this.totals.snapshot(),
      top: this.top.sorted(),
    };
  }

  /** Offers the slice's rows to top N (the slice holds the last `slice.rows` rows added). */
  private rank(group: RowGroupBuffer): void {
    const by = this.o.topBy;
    // In order: every row ranks equal, and ties keep the earlier row, so the first N rows stay.
    const cells = this.o.inOrder
      ? Array.from({ length: group.rows }, () => 0)
      : by === undefined
        ? undefined
        : group.cells(by, true);
    if (cells === undefined) return;
    const firstSeq = this.rows - group.rows;
    const columns = this.schema.columns();
    cells.forEach((value, r) => {
      if (typeof value !== 'number' || !this.top.wouldTake(value, firstSeq + r)) return;
      const row: SummaryRow = {};
      for (const c of columns) {
        if (c.role === 'window')
          row[c.name] = c.name === 'window_start' ? this.o.window.start : this.o.window.end;
        else row[c.name] = group.cells(c.name, c.role === 'metric')?.[r] ?? null;
      }
      this.top.offer({ value, seq: firstSeq + r, row });
    });
  }
}
