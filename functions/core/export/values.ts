/**
 * Whether a value fits its column's fixed type, and the text of a value that does not (docs/export.md
 * "Values that break a type", "Numbers", "Text"). A value never changes to fit, with two documented
 * exceptions that carry a warning: a numeric string in a number column is written as the number it
 * spells (NUMERIC_TEXT), and text that is not valid Unicode (a lone surrogate) has U+FFFD in its place
 * (INVALID_TEXT). Otherwise a value is written as it is or, when its column's type cannot hold it
 * exactly, left out of that column and written as text into the column's `…__raw` companion, and the
 * report carries a warning naming the column.
 */
import { NumberText, numberLiteral } from '../api/json';
import type { ColumnType } from '../manifest';
import { validText } from '../unicode';
import type { Cell } from './flatten';
import { isCalendarDate, isZonedDateTime } from './temporal';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The warning code for a value that breaks its column's type. */
export type BreakCode = 'TYPE_BREAK' | 'LONG_INTEGER' | 'NON_FINITE' | 'UNDERFLOW' | 'PRECISION';

/** Why `value` does not fit `type`, or null when it does. */
export function breakOf(type: ColumnType, value: Cell): BreakCode | null {
  if (value === null) return null;
  switch (type) {
    case 'string':
      return null;
    case 'int64':
    case 'double':
      return typeof value === 'string' ? textBreak(type, value) : numberBreak(type, value);
    case 'boolean':
      return typeof value === 'boolean' ? null : 'TYPE_BREAK';
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? null : 'TYPE_BREAK';
    case 'timestamp':
      return typeof value === 'string' && isZonedDateTime(value) ? null : 'TYPE_BREAK';
  }
}

function numberBreak(type: 'int64' | 'double', value: number | bigint | boolean): BreakCode | null {
  if (typeof value === 'boolean') return 'TYPE_BREAK';
  if (type === 'double')
    return typeof value === 'number' || BigInt(Number(value)) === value ? null : 'LONG_INTEGER';
  if (typeof value === 'bigint') return value >= INT64_MIN && value <= INT64_MAX ? null : 'LONG_INTEGER';
  if (Number.isSafeInteger(value)) return null;
  return Number.isInteger(value) ? 'LONG_INTEGER' : 'TYPE_BREAK';
}

/** A string in a number column: fits when it spells a number the column holds (NUMERIC_TEXT). */
function textBreak(type: 'int64' | 'double', value: string): BreakCode | null {
  const n = numberLiteral(value);
  if (n === null) return 'TYPE_BREAK';
  if (n instanceof NumberText) {
    const approx = Number(n.text);
    return Number.isFinite(approx) ? (approx === 0 ? 'UNDERFLOW' : 'PRECISION') : 'NON_FINITE';
  }
  return numberBreak(type, n);
}

/** Whether the cell fits its column only as the number its text spells (the NUMERIC_TEXT rule). */
export function isNumericText(type: ColumnType, value: Cell): boolean {
  return (
    typeof value === 'string' && (type === 'int64' || type === 'double') && breakOf(type, value) === null
  );
}

/** A cell as text, the way JSON wrote it (numbers in their shortest exact form, `-0` with its sign). */
export function cellText(value: Exclude<Cell, null>): string {
  if (typeof value === 'string') return validText(value);
  return Object.is(value, -0) ? '-0' : String(value);
}

/**
 * A number as CSV and JSON Lines write it: its shortest exact text, `-0` with its sign, and in a
 * `double` column always with a decimal point or exponent (`12.0`), so that CSV and JSON readers that
 * infer types see a DOUBLE every week, not a BIGINT in a week of whole values.
 */
export function numberText(value: number | bigint, double: boolean): string {
  const text = Object.is(value, -0) ? '-0' : String(value);
  return double && /^-?\d+$/.test(text) ? `${text}.0` : text;
}

/** The cell as its column holds it: the value when it fits (as text in a string column), else null. */
export function fitted(type: ColumnType, value: Cell): Cell {
  if (value === null) return null;
  if (type === 'string') return cellText(value);
  if (breakOf(type, value) !== null) return null;
  if (typeof value === 'string') {
    if (type !== 'int64' && type !== 'double') return value;
    const n = numberLiteral(value);
    return typeof n === 'bigint' && type === 'double' ? Number(n) : (n as number | bigint);
  }
  // an integer has no sign of zero: -0 is 0 in an int64 column, in every format
  if (type === 'int64' && Object.is(value, -0)) return 0;
  return type === 'double' && typeof value === 'bigint' ? Number(value) : value;
}
