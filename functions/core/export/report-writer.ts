/**
 * Everything one report accumulates while its pages stream through: the column model, totals, top N,
 * warnings and the part files. `snapshot()` is the resumable state; constructing from a snapshot
 * continues exactly where it left off (next part index included).
 *
 * Before a slice is sent, the model is planned for it (`planModel`): when the slice brings a column
 * the model lacks (or a value a column's type cannot hold, whose text goes to the column's `…__raw`
 * companion), the group's rows so far are written into the open part, which is closed, so the next
 * part opens with the whole model (the grown model is stored at commit, `settleModel`).
 *
 * Rows are flattened here, on the thread that fetches pages, into small slices (`SLICE_ROWS`); each
 * slice updates the schema, totals and top N and is then sent to the encoder stream, which buffers the
 * row group and encodes it (in a worker thread when the encoder is the worker pool). So this thread
 * never holds a whole row group, and never encodes one.
 */

import type { ApiRow } from '../api/types';
import type { ManifestFile, ReportWarning, TotalValue, Window } from '../manifest';
import type { Sink } from '../sink';
import { wellFormed } from '../unicode';
import { type Encoder, type EncoderStream, inlineEncoder } from './encoder';
import { type Cell, flattenRow } from './flatten';
import type { Format } from './formats';
import type { ColumnDef } from './model';
import { apiName, type ColumnModel, columnDefs, type ModelContext, planModel } from './model';
import { mergeModel } from './model-merge';
import type { ModelStore } from './model-store';
import { carriesModel, rewritePart } from './part-rewrite';
import { PartSet } from './parts';
import { type RowMean, RowMeans } from './row-means';
import { RowGroupBuffer } from './rowgroup';
import { type SummaryRow, TopN } from './top';
import { Totals } from './totals';
import { breakOf, fitted } from './values';
import { type WarningCode, warningFor } from './warnings';
import type { WriterState } from './writer-state';

export interface ReportWriterOptions extends ModelContext {
  readonly sink: Sink;
  /** Where the report's column model is stored (and extended). */
  readonly models: ModelStore;
  readonly window: Window;
  readonly formats: readonly Format[];
  readonly folders: Readonly<Partial<Record<Format, string>>>;
  /** `output.csvFormulaGuard` */
  readonly formulaGuard?: boolean;
  readonly topBy: string | undefined;
  readonly topN: number;
  /** Keep the first `topN` rows in arrival order instead of ranking (the email's trend of an over-time report). */
  readonly inOrder?: boolean;
  readonly rowGroupRows: number;
  readonly maxRowsPerPart: number;
  readonly maxPartBytes: number;
  /** Where row groups are encoded; default: on this thread (`inlineEncoder`). */
  readonly encoder?: Encoder;
  /** `output.maxKeysPerObject`: a nested object with more keys is one column of JSON text. */
  readonly maxKeysPerObject?: number;
}

/** Rows per slice sent to the encoder: about one page, so each send is short. */
const SLICE_ROWS = 1_000;

export class ReportWriter {
  private slice: RowGroupBuffer;
  private groupRows = 0;
  /**
   * The report's model as this export has grown it: the stored model it started from, extended in
   * memory; stored (merged into the newest version) only when the export is complete (`settleModel`).
   */
  private model: ColumnModel | null = null;
  /** Whether `model` holds the stored model (or the checkpoint's) yet. */
  private loaded = false;
  /** The model of a report that has had no row yet: used for its empty part, never stored. */
  private draft: ColumnModel | null = null;
  /** `CODE column` → how many values broke the column's type. */
  private readonly breaks: Map<string, number>;
  /** `f{field key}` / `m{metric}` → values holding U+FFFD from bytes invalid in the page's charset. */
  private readonly replaced = new Map<string, number>();
  private readonly stream: EncoderStream;
  private readonly totals: Totals;
  private readonly means: RowMeans;
  private readonly top: TopN;
  private readonly parts: PartSet;
  private readonly files: ManifestFile[];
  rows: number;

  constructor(
    private readonly o: ReportWriterOptions,
    from?: WriterState,
  ) {
    this.slice = new RowGroupBuffer(o.maxKeysPerObject);
    this.breaks = new Map(Object.entries(from?.breaks ?? {}));
    this.totals = new Totals(from?.totals);
    this.means = new RowMeans(from?.means);
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
      o.formulaGuard ?? false,
    );
    this.files = [...(from?.files ?? [])];
    this.rows = from?.rows ?? 0;
    if (from?.model !== undefined) {
      this.model = from.model;
      this.loaded = true;
    }
  }

  /** Buffers a row; writes the row group when it is full (or would overfill the open part). */
  async add(row: ApiRow): Promise<void> {
    await this.addAll([row]);
  }

  /**
   * `add` for each row in order; awaits only when a slice is sent or a group written (a page's
   * thousand rows are not a thousand promises).
   */
  async addAll(rows: readonly ApiRow[]): Promise<void> {
    for (const row of rows) {
      this.slice.addRow(row);
      this.rows += 1;
      this.groupRows += 1;
      const room = Math.min(this.o.rowGroupRows, this.o.maxRowsPerPart - this.parts.openRows);
      if (this.groupRows >= room) await this.flush();
      else if (this.slice.rows >= SLICE_ROWS) await this.send();
    }
  }

  /** Writes the buffered rows (if any) into the open part. */
  async flush(): Promise<void> {
    await this.send();
    await this.writeGroup(this.groupRows);
  }

  /** Writes the first `rows` buffered rows, all sent to the encoder, into the open part. */
  private async writeGroup(rows: number): Promise<void> {
    if (rows === 0) return;
    this.groupRows -= rows;
    this.files.push(...(await this.parts.writeGroup(rows, this.columns())));
  }

  /** Takes the slice into the schema, totals and top N, and sends it to the encoder's row group. */
  private async send(): Promise<void> {
    const slice = this.slice;
    if (slice.rows === 0) return;
    this.slice = new RowGroupBuffer(this.o.maxKeysPerObject);
    const columns = await this.modelFor(slice);
    // `planModel` gives every column that has a value its type cannot hold a raw companion: a column
    // without one has no breaking value in this slice
    const withRaw = new Set(columns.flatMap((c) => (c.source.kind === 'raw' ? [c.source.of] : [])));
    this.countBreaks(slice, columns, withRaw);
    for (const [cell, n] of slice.invalidTexts) this.replaced.set(cell, (this.replaced.get(cell) ?? 0) + n);
    for (const [key, rows] of slice.asJsonRows) {
      const column = columns.find((c) => c.role === 'id' && c.key === key);
      if (column !== undefined) this.count(`OBJECT_AS_JSON ${column.name}`, rows);
    }
    // totals add what the files hold: each value as its column holds it (null where it broke the type)
    for (const c of columns) {
      if (c.role !== 'metric') continue;
      const cells = slice.cells(c.key, true);
      if (cells !== undefined) {
        const asTheyAre =
          (c.type === 'int64' || c.type === 'double') && !withRaw.has(c.name) && plainNumbers(cells);
        const fittedCells = asTheyAre ? cells : cells.map((v) => fitted(c.type, v));
        this.totals.addColumn(c.key, fittedCells);
        this.means.addColumn(c.key, fittedCells);
      }
    }
    this.rank(slice, columns);
    // CSV and Parquet take each slice as it arrives (`SliceSpec`)
    const formats = this.o.formats;
    const spec =
      formats.includes('csv') || formats.includes('parquet')
        ? { columns, window: this.o.window, formulaGuard: this.o.formulaGuard ?? false, formats }
        : undefined;
    this.files.push(...(await this.parts.append(slice.batch(), spec, columns)));
  }

  /** The model's columns for `slice`, extending the model (in memory) first when it must grow. */
  private async modelFor(slice: RowGroupBuffer): Promise<ColumnDef[]> {
    const cols = slice.columns();
    if (!this.loaded) {
      this.model = (await this.o.models.load())?.model ?? null;
      this.loaded = true;
    }
    if (this.model === null && slice.rows === 0) {
      // A report without any row yet stores no model: its first model is made from its first rows, so
      // the route's identifying fields come first even when the first window was empty. The empty
      // part is written with this unstored model (window columns and the requested metrics).
      this.draft = planModel(null, this.o, cols);
      return this.columns();
    }
    const planned = planModel(this.model, this.o, cols);
    if (planned !== this.model) {
      // the group's earlier slices were encoded for the columns they were sent with (the encoder
      // takes each slice as it arrives): they are written now, into the part of those columns
      await this.writeGroup(this.groupRows - slice.rows);
      // grown in memory only: stored at commit (`settleModel`), so a failed export stores nothing
      this.model = planned;
      // the next part opens with every column
      if (this.parts.openColumns !== null) this.files.push(...(await this.parts.close()));
    }
    return this.columns();
  }

  /** Counts, per column, the values not written as they came (each a warning naming the column). */
  private countBreaks(
    slice: RowGroupBuffer,
    columns: readonly ColumnDef[],
    withRaw: ReadonlySet<string>,
  ): void {
    for (const c of columns) {
      if (c.role !== 'id' && c.role !== 'metric') continue;
      const numeric = c.type === 'int64' || c.type === 'double';
      // the values of a column without a raw companion need no check (above)
      const mayBreak = withRaw.has(c.name);
      for (const v of slice.cells(c.key, c.role === 'metric') ?? []) {
        if (v === null) continue;
        if (typeof v === 'string' && !wellFormed(v)) this.count(`INVALID_TEXT ${c.name}`, 1);
        if (c.type === 'string') continue;
        const code = mayBreak ? breakOf(c.type, v) : null;
        if (code !== null) this.count(`${code} ${c.name}`, 1);
        else if (numeric && typeof v === 'string') this.count(`NUMERIC_TEXT ${c.name}`, 1);
      }
    }
  }

  /**
   * A page whose body had byte sequences invalid in its charset (decoded as U+FFFD, `ApiPage.
   * invalidSequences`): counts, per column, its values that hold U+FFFD (INVALID_TEXT).
   */
  noteInvalidBytes(rows: readonly ApiRow[]): void {
    for (const row of rows) {
      const flat = flattenRow(row, this.o.maxKeysPerObject);
      for (const [key, v] of flat.fields)
        if (typeof v === 'string' && v.includes('\uFFFD')) this.bump(`f${key}`);
      for (const [name, v] of flat.metrics)
        if (typeof v === 'string' && v.includes('\uFFFD')) this.bump(`m${name}`);
    }
  }

  private bump(cell: string): void {
    this.replaced.set(cell, (this.replaced.get(cell) ?? 0) + 1);
  }

  /** Names the columns of `noteInvalidBytes`' counts (once the rows are in the model). */
  private settleReplaced(): void {
    for (const c of this.columns()) {
      if (c.role !== 'id' && c.role !== 'metric') continue;
      const cell = `${c.role === 'id' ? 'f' : 'm'}${c.key}`;
      const n = this.replaced.get(cell);
      if (n === undefined) continue;
      this.count(`INVALID_TEXT ${c.name}`, n);
      this.replaced.delete(cell);
    }
  }

  private count(id: string, n: number): void {
    this.breaks.set(id, (this.breaks.get(id) ?? 0) + n);
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
    if (this.files.length === 0) this.parts.ensureOpen(columns);
    await this.closePart();
    await this.settleModel();
    return this.files;
  }

  /**
   * Stores the model this export grew, merged into the newest stored version (compare-and-swap), and
   * rewrites every part that does not carry exactly the merged model's columns (written before the
   * model grew, or while another window of the report added columns), one part at a time: every part
   * of the partition then has the same columns, those of the model at commit.
   */
  private async settleModel(): Promise<void> {
    const ours = this.model;
    if (ours === null) return; // no row ever: nothing to store (the empty part has the draft's columns)
    const to = (await this.o.models.update((latest) => mergeModel(latest, ours))).model;
    this.model = to;
    for (const [i, file] of this.files.entries()) {
      if (carriesModel(file, { from: ours, to })) continue;
      this.files[i] = await rewritePart(
        this.o.sink,
        file,
        { from: ours, to },
        this.o.window,
        this.o.formulaGuard ?? false,
      );
    }
  }

  async abort(): Promise<void> {
    await this.parts.abort();
    this.release();
  }

  /** Frees the encoder's state for this report (after `finish`, a continuation, or `abort`). */
  release(): void {
    this.stream.close();
  }

  /** The report's column model as this writer last stored or read it (empty before the first rows). */
  columns(): ColumnDef[] {
    const model = this.model ?? this.draft;
    return model === null ? [] : columnDefs(model);
  }

  /** The manifest's columns: name, type and the API's name. */
  manifestColumns(): { name: string; type: ColumnDef['type']; apiName: string | null }[] {
    return this.columns().map((c) => ({ name: c.name, type: c.type, apiName: apiName(c.source) }));
  }

  /** Warnings naming each column that received values its type cannot hold. */
  warnings(): ReportWarning[] {
    this.settleReplaced();
    const raws = new Map(
      this.columns().flatMap((c) => (c.source.kind === 'raw' ? [[c.source.of, c.name] as const] : [])),
    );
    return [...this.breaks].map(([id, count]) => {
      const space = id.indexOf(' ');
      const column = id.slice(space + 1);
      const code = id.slice(0, space) as WarningCode;
      return warningFor(code, column, count, raws.get(column) ?? `${column}__raw`, this.o.maxKeysPerObject);
    });
  }

  /** Totals (by the API's metric names) of the additive metrics whose column is numeric. */
  totalsResult(): Record<string, TotalValue> {
    const numeric = new Set(
      this.columns()
        .filter((c) => c.source.kind === 'metric' && (c.type === 'int64' || c.type === 'double'))
        .map((c) => c.key),
    );
    return Object.fromEntries(Object.entries(this.totals.result()).filter(([name]) => numeric.has(name)));
  }

  /** Averages per row (by the API's metric names) of the numeric metrics that are never summed. */
  meansResult(): Record<string, RowMean> {
    const numeric = new Set(
      this.columns()
        .filter((c) => c.source.kind === 'metric' && (c.type === 'int64' || c.type === 'double'))
        .map((c) => c.key),
    );
    return Object.fromEntries(Object.entries(this.means.result()).filter(([name]) => numeric.has(name)));
  }

  topRows(): SummaryRow[] {
    return this.top.sorted().map((e) => e.row);
  }

  writtenFiles(): readonly ManifestFile[] {
    return this.files;
  }

  snapshot(): WriterState {
    this.settleReplaced();
    return {
      nextPart: this.parts.nextIndex,
      files: [...this.files],
      rows: this.rows,
      breaks: Object.fromEntries(this.breaks),
      totals: this.totals.snapshot(),
      means: this.means.snapshot(),
      top: this.top.sorted(),
      ...(this.model !== null ? { model: this.model } : {}),
    };
  }

  /** Offers the slice's rows to top N (the slice holds the last `slice.rows` rows added). */
  private rank(group: RowGroupBuffer, columns: readonly ColumnDef[]): void {
    const by = this.o.topBy;
    // In order: every row ranks equal, and ties keep the earlier row, so the first N rows stay.
    const cells = this.o.inOrder
      ? Array.from({ length: group.rows }, () => 0)
      : by === undefined
        ? undefined
        : group.cells(by, true);
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

/**
 * Cells a number column without a breaking value holds as they are (`fitted` is the identity on
 * them): numbers other than -0 (an int64 column holds 0), and nulls. A hot path: every metric column
 * of every slice.
 */
function plainNumbers(cells: readonly Cell[]): boolean {
  for (const v of cells) if (v !== null && (typeof v !== 'number' || Object.is(v, -0))) return false;
  return true;
}
