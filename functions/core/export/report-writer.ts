/**
 * Everything one report accumulates while its pages stream through: the row group being buffered,
 * the running schema, totals, top N and the part files. `snapshot()` is the resumable state;
 * constructing from a snapshot continues exactly where it left off (next part index included).
 */

import type { ApiRow } from '../api/types';
import type { ManifestFile, Window } from '../manifest';
import type { CheckpointState } from '../run/checkpoint';
import type { SummaryRow } from '../run/types';
import type { Sink } from '../sink';
import type { ColumnDef } from './columns';
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
}

export type WriterState = Omit<CheckpointState, 'version' | 'cursor' | 'pages'>;

export class ReportWriter {
  private group = new RowGroupBuffer();
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
    this.parts = new PartSet(
      o.sink,
      o.folders,
      o.formats,
      { maxRows: o.maxRowsPerPart, maxBytes: o.maxPartBytes },
      from?.nextPart ?? 0,
    );
    this.files = [...(from?.files ?? [])];
    this.rows = from?.rows ?? 0;
  }

  /** Buffers a row; writes the row group when it is full (or would overfill the open part). */
  async add(row: ApiRow): Promise<void> {
    this.group.addRow(row);
    this.rows += 1;
    const room = Math.min(this.o.rowGroupRows, this.o.maxRowsPerPart - this.parts.openRows);
    if (this.group.rows >= room) await this.flush();
  }

  /** Writes the buffered rows (if any) into the open part. */
  async flush(): Promise<void> {
    const group = this.group;
    if (group.rows === 0) return;
    this.group = new RowGroupBuffer();
    const kinds = group.kinds();
    this.schema.absorb(group, kinds);
    for (const [name, cells] of group.metrics) this.totals.addColumn(name, cells);
    this.rank(group);
    this.files.push(
      ...(await this.parts.writeGroup(group, kinds, () => this.schema.columns(), this.o.window)),
    );
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
