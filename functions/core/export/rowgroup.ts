/**
 * The row group being buffered: one array of cells per column (columnar, as the Parquet writer wants
 * it), filled as rows arrive. Rows are flattened straight into the column arrays (no per-row maps). A
 * column first seen at row k is back-filled with k nulls, and a column a row lacks gets a null, so
 * every column has `rows` cells whenever it is read (the padding happens once, on first read).
 */
import type { ApiRow } from '../api/types';
import { type Cell, type CellSink, DEFAULT_MAX_KEYS_PER_OBJECT, flattenRowInto } from './flatten';
import type { GroupColumns } from './model';

/**
 * Flattened rows in transit from the thread that fetches pages to the encoder: every column padded to
 * `rows` cells, in first-seen order. Plain arrays, so it crosses a `postMessage` as it is.
 */
export interface ColumnBatch {
  readonly rows: number;
  readonly fields: readonly (readonly [string, Cell[]])[];
  readonly metrics: readonly (readonly [string, Cell[]])[];
}

export class RowGroupBuffer implements CellSink {
  rows = 0;
  /** Insertion order = first-seen order within this group. Fields by `fieldKey(path)`, metrics by name. */
  readonly fields = new Map<string, Cell[]>();
  readonly metrics = new Map<string, Cell[]>();
  /** Field key → rows in which its object had more keys than the bound and became JSON text. */
  readonly asJsonRows = new Map<string, number>();
  private padded = 0;

  /** `maxKeys`: the bound on one nested object's keys (`output.maxKeysPerObject`). */
  constructor(private readonly maxKeys = DEFAULT_MAX_KEYS_PER_OBJECT) {}

  /** A buffer holding exactly `batch`'s rows (its arrays are taken as they are, not copied). */
  static of(batch: ColumnBatch): RowGroupBuffer {
    const g = new RowGroupBuffer();
    for (const [name, cells] of batch.fields) g.fields.set(name, cells);
    for (const [name, cells] of batch.metrics) g.metrics.set(name, cells);
    g.rows = batch.rows;
    g.padded = batch.rows;
    return g;
  }

  /**
   * The columns the previous row's cells went to, in its order: rows of a page mostly have the same
   * keys in the same order, so the n-th cell of a row usually goes where the n-th cell of the row
   * before went, found by comparing the (memoised, so identical) key instead of a map lookup.
   */
  private readonly fieldTrail = new Trail();
  private readonly metricTrail = new Trail();

  /** Flattens one API row into the columns. */
  addRow(row: ApiRow): void {
    this.fieldTrail.at = 0;
    this.metricTrail.at = 0;
    flattenRowInto(row, this, this.maxKeys);
    this.rows += 1;
  }

  field(key: string, value: Cell): void {
    put(this.fieldTrail.column(this.fields, key), value, this.rows);
  }

  metric(name: string, value: Cell): void {
    put(this.metricTrail.column(this.metrics, name), value, this.rows);
  }

  /** `f{field key}` / `m{metric}` → cells of JSON text in which a lone surrogate became U+FFFD. */
  readonly invalidTexts = new Map<string, number>();

  invalidText(key: string, metric: boolean): void {
    const cell = `${metric ? 'm' : 'f'}${key}`;
    this.invalidTexts.set(cell, (this.invalidTexts.get(cell) ?? 0) + 1);
  }

  asJson(key: string): void {
    this.asJsonRows.set(key, (this.asJsonRows.get(key) ?? 0) + 1);
  }

  /** The cells of a field (by key) or metric (by name), or undefined when no row had it. */
  cells(key: string, metric: boolean): Cell[] | undefined {
    this.pad();
    return (metric ? this.metrics : this.fields).get(key);
  }

  /** Every column of the group with its cells (for planning the column model). */
  columns(): GroupColumns {
    this.pad();
    return { fields: this.fields, metrics: this.metrics };
  }

  /** This buffer's rows as a batch (its arrays are handed over: do not add rows afterwards). */
  batch(): ColumnBatch {
    this.pad();
    return { rows: this.rows, fields: [...this.fields], metrics: [...this.metrics] };
  }

  /** Appends a batch's rows (columns it lacks get nulls, new columns are back-filled). */
  append(batch: ColumnBatch): void {
    appendColumns(this.fields, batch.fields, this.rows);
    appendColumns(this.metrics, batch.metrics, this.rows);
    this.rows += batch.rows;
  }

  /** Every column gets `rows` cells (nulls for rows that lacked it). */
  private pad(): void {
    if (this.padded === this.rows) return;
    for (const cells of this.fields.values()) while (cells.length < this.rows) cells.push(null);
    for (const cells of this.metrics.values()) while (cells.length < this.rows) cells.push(null);
    this.padded = this.rows;
  }
}

/** See `RowGroupBuffer.fieldTrail`. */
class Trail {
  at = 0;
  private readonly keys: string[] = [];
  private readonly cells: Cell[][] = [];

  /** The column of `name` in `columns` (made when new), the row's next cell's. */
  column(columns: Map<string, Cell[]>, name: string): Cell[] {
    const i = this.at;
    this.at = i + 1;
    if (this.keys[i] === name) return this.cells[i] as Cell[];
    let cells = columns.get(name);
    if (cells === undefined) {
      cells = [];
      columns.set(name, cells);
    }
    this.keys[i] = name;
    this.cells[i] = cells;
    return cells;
  }
}

function put(cells: Cell[], value: Cell, row: number): void {
  if (cells.length > row) {
    // the same flattened name twice in one row: the last value wins
    cells[row] = value;
    return;
  }
  while (cells.length < row) cells.push(null);
  cells.push(value);
}

function appendColumns(columns: Map<string, Cell[]>, add: ColumnBatch['fields'], rows: number): void {
  for (const [name, cells] of add) {
    let column = columns.get(name);
    if (column === undefined) {
      column = [];
      columns.set(name, column);
    }
    while (column.length < rows) column.push(null);
    for (const v of cells) column.push(v);
  }
}
