/**
 * Cell values of one column of a buffered row group, converted for a part's fixed column type. Both
 * writers read the same row group through these helpers, so CSV and Parquet always hold the same data.
 */
import type { Window } from '../manifest';
import type { ColumnDef } from './columns';
import type { Cell } from './flatten';
import type { RowGroupBuffer } from './rowgroup';

/** The raw cells of `column` in `group` (window columns are the window's dates on every row). */
export function columnCells(group: RowGroupBuffer, column: ColumnDef, window: Window): readonly Cell[] {
  if (column.role === 'window') {
    const date = column.name === 'window_start' ? window.start : window.end;
    return new Array<Cell>(group.rows).fill(date);
  }
  return group.cells(column.name, column.role === 'metric') ?? new Array<Cell>(group.rows).fill(null);
}

const MS_PER_DAY = 86_400_000;

const dayCache = new Map<string, number>();

/** `YYYY-MM-DD` → days since 1970-01-01 (Parquet DATE). Memoised: a report has few distinct dates. */
export function epochDay(date: string): number {
  let day = dayCache.get(date);
  if (day === undefined) {
    const [y, m, d] = date.split('-').map(Number);
    day = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) / MS_PER_DAY;
    if (dayCache.size > 10_000) dayCache.clear();
    dayCache.set(date, day);
  }
  return day;
}
