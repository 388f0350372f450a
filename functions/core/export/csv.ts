/**
 * RFC 4180 CSV: CRLF line ends, UTF-8, a header row, fields quoted only when they hold `"`, `,`, CR
 * or LF (with `"` doubled), and an empty field for null. Formula-injection guard: a TEXT cell (a value
 * that arrived as a string) starting with `=`, `+`, `-`, `@`, tab or CR gets a leading `'`. Numbers,
 * booleans and dates are never touched, so `-5` stays a number a spreadsheet can sum.
 */
import type { Window } from '../manifest';
import { columnCells } from './cells';
import type { ColumnDef } from './columns';
import type { Cell } from './flatten';
import type { RowGroupBuffer } from './rowgroup';

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** Quotes a field when RFC 4180 needs it. */
export function quoteCsv(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One cell as CSV text (already quoted when needed). */
export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'string') return quoteCsv(FORMULA_START.test(value) ? `'${value}` : value);
  return String(value);
}

/** The header row, CRLF-terminated. */
export function csvHeader(columns: readonly ColumnDef[]): string {
  return `${columns.map((c) => quoteCsv(c.name)).join(',')}\r\n`;
}

/** Every row of a row group as CSV lines, CRLF-terminated. */
export function csvRows(columns: readonly ColumnDef[], group: RowGroupBuffer, window: Window): string {
  const cols = columns.map((c) => columnCells(group, c, window));
  const lines: string[] = [];
  for (let r = 0; r < group.rows; r += 1) {
    const cells: string[] = [];
    for (const col of cols) cells.push(csvCell(col[r] ?? null));
    lines.push(cells.join(','));
  }
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}
