/**
 * The row group being buffered: one array of cells per column (columnar, as the Parquet writer wants
 * it), filled as rows arrive. A column first seen at row k is back-filled with k nulls, and a column a
 * row lacks gets a null, so every column always has `rows` cells.
 */
import { type Kind, kindOfColumn } from './columns';
import type { Cell, FlatRow } from './flatten';

export class RowGroupBuffer {
  rows = 0;
  /** Insertion order = first-seen order within this group. */
  readonly fields = new Map<string, Cell[]>();
  readonly metrics = new Map<string, Cell[]>();

  add(row: FlatRow): void {
    put(this.fields, row.fields, this.rows);
    put(this.metrics, row.metrics, this.rows);
    this.rows += 1;
  }

  /** The cells of a column (fields first, then metrics), or undefined when no row had it. */
  cells(name: string, metric: boolean): Cell[] | undefined {
    return (metric ? this.metrics : this.fields).get(name);
  }

  /** The inferred kind of every column in this group, keyed by column name. */
  kinds(): Map<string, Kind> {
    const out = new Map<string, Kind>();
    for (const [name, cells] of this.fields) out.set(name, kindOfColumn(cells));
    for (const [name, cells] of this.metrics) out.set(name, kindOfColumn(cells));
    return out;
  }
}

function put(columns: Map<string, Cell[]>, values: ReadonlyMap<string, Cell>, rowIndex: number): void {
  for (const [name, value] of values) {
    let cells = columns.get(name);
    if (cells === undefined) {
      cells = new Array<Cell>(rowIndex).fill(null);
      columns.set(name, cells);
    }
    cells.push(value);
  }
  for (const cells of columns.values()) if (cells.length === rowIndex) cells.push(null);
}
