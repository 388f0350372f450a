/**
 * Cell values of one column of a buffered row group, as the column's fixed type holds them. Every
 * writer reads the row group through `columnCells`, so CSV, Parquet and JSON Lines hold the same data
 * cell for cell: a value its column cannot hold is null there and its text is in the `…__raw` column.
 */
import type { Window } from '../manifest';
import type { Cell } from './flatten';
import type { ColumnDef } from './model';
import type { RowGroupBuffer } from './rowgroup';
import { breakOf, cellText, fitted } from './values';

/**
 * A buffered row group as every format's encoder reads it: each column's cells computed once (on
 * first use) and shared by the formats, since a check of every cell against its column's type is
 * the same work for CSV, Parquet and JSON Lines.
 */
export class GroupCells {
  private readonly memo = new Map<ColumnDef, readonly Cell[]>();

  constructor(
    private readonly group: RowGroupBuffer,
    private readonly window: Window,
  ) {}

  get rows(): number {
    return this.group.rows;
  }

  of(column: ColumnDef): readonly Cell[] {
    let cells = this.memo.get(column);
    if (cells === undefined) {
      cells = columnCells(this.group, column, this.window);
      this.memo.set(column, cells);
    }
    return cells;
  }
}

/** The cells of `column` in `group` (window columns are the window's dates on every row). */
export function columnCells(group: RowGroupBuffer, column: ColumnDef, window: Window): readonly Cell[] {
  if (column.role === 'window') {
    const date =
      column.source.kind === 'window' && column.source.which === 'start' ? window.start : window.end;
    return new Array<Cell>(group.rows).fill(date);
  }
  if (column.role === 'raw') {
    const parent = column.of;
    const cells = parent === undefined ? undefined : group.cells(column.key, parent.metric);
    if (parent === undefined || cells === undefined) return new Array<Cell>(group.rows).fill(null);
    return cells.map((v) => (v !== null && breakOf(parent.type, v) !== null ? cellText(v) : null));
  }
  const cells = group.cells(column.key, column.role === 'metric');
  if (cells === undefined) return new Array<Cell>(group.rows).fill(null);
  // usually every cell already fits as it is: no copy then
  // (Object.is: an int64 column's -0 is 0)
  if (cells.every((v) => Object.is(fitted(column.type, v), v))) return cells;
  return cells.map((v) => fitted(column.type, v));
}
