/**
 * Whether a value fits its column's fixed type, and the text of a value that does not (docs/export.md
 * "Values that break a type"). A value never changes to fit: it is written as it is or, when its
 * column's type cannot hold it exactly, left out of that column and written as text into the column's
 * `…__raw` companion, and the report carries a warning naming the column.
 */
import type { ColumnType } from '../manifest';
import type { Cell } from './flatten';
import { isCalendarDate, isZonedDateTime } from './temporal';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** A JSON number literal (how a number too large for a double arrives: as its text). */
const NUMBER_TEXT = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The warning code for a value that breaks its column's type. */
export type BreakCode = 'TYPE_BREAK' | 'LONG_INTEGER' | 'NON_FINITE';

/** Why `value` does not fit `type`, or null when it does. */
export function breakOf(type: ColumnType, value: Cell): BreakCode | null {
  if (value === null) return null;
  switch (type) {
    case 'string':
      return null;
    case 'int64':
      if (typeof value === 'number') return Number.isSafeInteger(value) ? null : numberBreak(value);
      if (typeof value === 'bigint') return value >= INT64_MIN && value <= INT64_MAX ? null : 'LONG_INTEGER';
      return textBreak(value);
    case 'double':
      if (typeof value === 'number') return null;
      if (typeof value === 'bigint') return BigInt(Number(value)) === value ? null : 'LONG_INTEGER';
      return textBreak(value);
    case 'boolean':
      return typeof value === 'boolean' ? null : 'TYPE_BREAK';
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? null : 'TYPE_BREAK';
    case 'timestamp':
      return typeof value === 'string' && isZonedDateTime(value) ? null : 'TYPE_BREAK';
  }
}

function numberBreak(value: number): BreakCode {
  return Number.isInteger(value) ? 'LONG_INTEGER' : 'TYPE_BREAK';
}

function textBreak(value: string | boolean): BreakCode {
  return typeof value === 'string' && NUMBER_TEXT.test(value) ? 'NON_FINITE' : 'TYPE_BREAK';
}

/** A cell as text, the way JSON wrote it (numbers in their shortest exact form). */
export function cellText(value: Exclude<Cell, null>): string {
  return typeof value === 'string' ? value : String(value);
}

/** The cell as its column holds it: the value when it fits (as text in a string column), else null. */
export function fitted(type: ColumnType, value: Cell): Cell {
  if (value === null) return null;
  if (type === 'string') return typeof value === 'string' ? value : cellText(value);
  if (breakOf(type, value) !== null) return null;
  return type === 'double' && typeof value === 'bigint' ? Number(value) : value;
}
