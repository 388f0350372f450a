/**
 * The report warnings of values the writer did not write as they came (docs/export.md "Values that
 * break a type", "A bound on columns"), each naming its column.
 */
import type { ReportWarning } from '../manifest';
import { DEFAULT_MAX_KEYS_PER_OBJECT } from './flatten';
import type { BreakCode } from './values';

/**
 * A type break; an object kept whole as JSON text because it had more keys than the bound; a number
 * sent as text and written as the number (NUMERIC_TEXT); text that was not valid Unicode (INVALID_TEXT).
 */
export type WarningCode = BreakCode | 'OBJECT_AS_JSON' | 'NUMERIC_TEXT' | 'INVALID_TEXT';

/** What a break is, one and many: `1 value that does not fit`, `3 values that do not fit`. */
const WHAT: Record<BreakCode, readonly [string, string]> = {
  TYPE_BREAK: ['value that does not fit its type', 'values that do not fit its type'],
  LONG_INTEGER: ['integer too long for its type', 'integers too long for its type'],
  NON_FINITE: [
    'number beyond the range of a double (such as 1e400)',
    'numbers beyond the range of a double (such as 1e400)',
  ],
  UNDERFLOW: [
    'number too small for a double, which would become 0 (such as 1e-400)',
    'numbers too small for a double, which would become 0 (such as 1e-400)',
  ],
  PRECISION: [
    'number with more significant digits than a double keeps',
    'numbers with more significant digits than a double keeps',
  ],
};

/** `1 object`, `2 objects`. */
const counted = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

export function warningFor(
  code: WarningCode,
  column: string,
  count: number,
  raw: string,
  maxKeys = DEFAULT_MAX_KEYS_PER_OBJECT,
): ReportWarning {
  if (code === 'OBJECT_AS_JSON') {
    return {
      code,
      column,
      count,
      message: `Column ${column} received ${counted(count, 'object', 'objects')} of more than ${maxKeys} keys (data used as keys, such as per-country counts); each is kept whole as JSON text in ${column} instead of a column per key, which would grow the report by a column for every key ever seen (output.maxKeysPerObject). Read it with a JSON function, e.g. DuckDB json_extract or Athena json_extract_scalar.`,
    };
  }
  if (code === 'NUMERIC_TEXT') {
    return {
      code,
      column,
      count,
      message: `Column ${column} received ${counted(count, 'number', 'numbers')} sent as text (such as "12"); each is written as the number it spells, in every format. The API sends this metric as a string: check that the number is what the API means.`,
    };
  }
  if (code === 'INVALID_TEXT') {
    return {
      code,
      column,
      count,
      message: `Column ${column} received ${counted(count, 'value', 'values')} with text that is not valid Unicode (bytes invalid in the response's charset, or a lone surrogate escape such as \\ud800); each such sequence is U+FFFD (\u{FFFD}) in every format. The API sent malformed text: report it to the API provider.`,
    };
  }
  return {
    code,
    column,
    count,
    message: `Column ${column} received ${counted(count, ...WHAT[code])}; ${count === 1 ? 'it is' : 'they are'} null in ${column} and kept unaltered as text in ${raw}. Declare the column's type under the report's columns: in the config if the API changed it.`,
  };
}
