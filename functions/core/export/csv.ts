/**
 * RFC 4180 CSV: CRLF line ends, UTF-8, a header row, fields quoted only when they hold `"`, `,`, CR
 * or LF (with `"` doubled), and an empty field for null. Values are exactly as the API sent them.
 *
 * Formula-injection guard, for the copies people open in a spreadsheet (always on emailed
 * attachments; `output.csvFormulaGuard` for the exports): a TEXT cell (a value that arrived as a
 * string) or a header cell starting with `=`, `+`, `-`, `@`, tab or CR gets a leading `'`. Numbers,
 * booleans and dates are never touched, so `-5` stays a number a spreadsheet can sum.
 */
import type { Cell } from './flatten';
import type { ColumnDef } from './model';
import { numberText } from './values';

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** Quotes a field when RFC 4180 needs it. */
export function quoteCsv(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Whether a spreadsheet would take this text for a formula. */
export function looksLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}

/** The text with the guard applied. */
export function guardText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell as CSV text (already quoted when needed); a number of a `double` column with its point. */
export function csvCell(value: Cell, guard = false, double = false): string {
  if (value === null) return '';
  if (typeof value === 'string') return quoteCsv(guard ? guardText(value) : value);
  if (typeof value === 'boolean') return String(value);
  return numberText(value, double);
}

/** The header row, CRLF-terminated. */
export function csvHeader(columns: readonly ColumnDef[], guard = false): string {
  return `${columns.map((c) => quoteCsv(guard ? guardText(c.name) : c.name)).join(',')}\r\n`;
}
