/**
 * Everything one report accumulates while its pages stream through: the row group being buffered,
 * the column model, totals, top N, warnings and the part files. `snapshot()` is the resumable state;
 * constructing from a snapshot continues exactly where it left off (next part index included).
 *
 * Before a row group is written, the model is planned for it (`planModel`): when the group brings a
 * column the model lacks (or a value a column's type cannot hold, whose text goes to the column's
 * `…__raw` companion), the open part is closed and the extended model is stored (compare-and-swap)
 * before the next part opens with it.
 */
import type { ApiRow } from '../api/types';
import type { ManifestFile, ReportWarning, Window } from '../manifest';
import type { CheckpointState } from '../run/checkpoint';
import type { SummaryRow } from '../run/types';
import type { Sink } from '../sink';
import type { ColumnDef } from './columns';
import type { Format } from './formats';
import { apiName, type ColumnModel, columnDefs, type ModelContext, planModel } from './model';
import type { ModelStore } from './model-store';
import { PartSet } from './parts';
import { RowGroupBuffer } from './rowgroup';
import { TopN } from './top';
import { Totals } from './totals';
import { type BreakCode, breakOf, fitted } from './values';
import { warningFor } from './warnings';

export interface ReportWriterOptions extends ModelContext {
  readonly sink: Sink;
  readonly models: ModelStore;
  readonly window: Window;
  readonly formats: readonly Format[];
  readonly folders: Readonly<Partial<Record<Format, string>>>;
  readonly topBy: string | undefined;
  readonly topN: number;
  readonly rowGroupRows: number;
  readonly maxRowsPerPart: number;
  readonly maxPartBytes: number;
  /** `output.csvFormulaGuard` */
  readonly formulaGuard?: boolean;
}

export type WriterState = Omit<CheckpointState, 'version' | 'cursor' | 'pages'>;

export class ReportWriter {
  private group = new RowGroupBuffer();
  private model: ColumnModel | null = null;
  private readonly totals: Totals;
  private readonly top: TopN;
  private readonly parts: PartSet;
  private readonly files: ManifestFile[];
  /** `code column` → count of values that broke the column's type. */
  private readonly breaks: Map<string, number>;
  rows: number;

  constructor(
    private readonly o: ReportWriterOptions,
    from?: WriterState,
  ) {
    this.totals = new Totals(from?.totals);
    this.top = new TopN(o.topBy === undefined ? 0 : o.topN, from?.top ?? []);
    this.parts = new PartSet(
      o.sink,
      o.folders,
      o.formats,
      { maxRows: o.maxRowsPerPart, maxBytes: o.maxPartBytes },
      from?.nextPart ?? 0,
      { formulaGuard: o.formulaGuard ?? false },
    );
    this.files = [...(from?.files ?? [])];
    this.rows = from?.rows ?? 0;
    this.breaks = new Map(Object.entries(from?.breaks ?? {}));
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
    const columns = await this.modelFor(group);
    this.countBreaks(group, columns);
    for (const [name, cells] of group.metrics) this.totals.addColumn(name, cells);
    this.rank(group, columns);
    this.files.push(...(await this.parts.writeGroup(group, columns, this.o.window)));
  }

  /** Flushes and closes the open part (continuation point, or the end). */
  async closePart(): Promise<void> {
    await this.flush();
    this.files.push(...(await this.parts.close()));
  }

  /** Ends the export: a report with no rows at all still gets one part (header / schema only). */
  async finish(): Promise<ManifestFile[]> {
    await this.flush();
    const columns = await this.modelFor(new RowGroupBuffer());
    if (this.files.length === 0) await this.parts.ensureOpen(columns);
    await this.closePart();
    return this.files;
  }

  async abort(): Promise<void> {
    await this.parts.abort();
  }

  /** The report's column model as this writer last stored or read it (empty before the first group). */
  columns(): ColumnDef[] {
    return this.model === null ? [] : columnDefs(this.model);
  }

  /** The manifest's columns: name, type and the API's name. */
  manifestColumns(): { name: string; type: ColumnDef['type']; apiName: string | null }[] {
    return this.columns().map((c) => ({ name: c.name, type: c.type, apiName: apiName(c.source) }));
  }

  /** Totals (by the API's metric names) of the additive metrics whose column is numeric. */
  totalsResult(): Record<string, number> {
    const numeric = new Set(
      this.columns()
        .filter((c) => c.source.kind === 'metric' && (c.type === 'int64' || c.type === 'double'))
        .map((c) => c.key),
    );
    return Object.fromEntries(Object.entries(this.totals.result()).filter(([name]) => numeric.has(name)));
  }

  /** Warnings naming each column that received values its type cannot hold. */
  warnings(): ReportWarning[] {
    const raws = new Map(
      this.columns().flatMap((c) => (c.source.kind === 'raw' ? [[c.source.of, c.name] as const] : [])),
    );
    return [...this.breaks].map(([id, count]) => {
      const space = id.indexOf(' ');
      const column = id.slice(space + 1);
      return warningFor(id.slice(0, space) as BreakCode, column, count, raws.get(column) ?? `${column}__raw`);
    });
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
      breaks: Object.fromEntries(this.breaks),
      totals: this.totals.snapshot(),
      top: this.top.sorted(),
    };
  }

  /** The model's columns for `group`, extending and storing the model first when it must grow. */
  private async modelFor(group: RowGroupBuffer): Promise<ColumnDef[]> {
    const cols = group.columns();
    if (this.model === null) this.model = (await this.o.models.load())?.model ?? null;
    const planned = planModel(this.model, this.o, cols);
    if (planned !== this.model) {
      // the open part has fewer columns than the model will: close it before the model grows
      if (this.parts.openColumns !== null) this.files.push(...(await this.parts.close()));
      this.model = (await this.o.models.update((latest) => planModel(latest, this.o, cols))).model;
    }
    return columnDefs(this.model);
  }

  private countBreaks(group: RowGroupBuffer, columns: readonly ColumnDef[]): void {
    for (const c of columns) {
      if (c.role !== 'id' && c.role !== 'metric') continue;
      const cells = group.cells(c.key, c.role === 'metric');
      if (cells === undefined || c.type === 'string') continue;
      for (const v of cells) {
        const code = breakOf(c.type, v);
        if (code === null) continue;
        const id = `${code} ${c.name}`;
        this.breaks.set(id, (this.breaks.get(id) ?? 0) + 1);
      }
    }
  }

  private rank(group: RowGroupBuffer, columns: readonly ColumnDef[]): void {
    const by = this.o.topBy;
    const cells = by === undefined ? undefined : group.cells(by, true);
    if (cells === undefined) return;
    const firstSeq = this.rows - group.rows;
    const shown = columns.filter((c) => c.role !== 'raw');
    cells.forEach((value, r) => {
      if (typeof value !== 'number' || !this.top.wouldTake(value, firstSeq + r)) return;
      // keyed by the API's names (the email speaks of metrics by their configured names)
      const entries = shown.map((c): [string, SummaryRow[string]] => {
        const v =
          c.source.kind === 'window'
            ? c.source.which === 'start'
              ? this.o.window.start
              : this.o.window.end
            : fitted(c.type, group.cells(c.key, c.role === 'metric')?.[r] ?? null);
        const label = c.source.kind === 'field' ? c.source.path.join('_') : (apiName(c.source) ?? c.name);
        return [label, typeof v === 'bigint' ? v.toString() : v];
      });
      this.top.offer({ value, seq: firstSeq + r, row: Object.fromEntries(entries) });
    });
  }
}
