/**
 * The report warnings of values the writer did not write as they came (docs/export.md "Values that
 * break a type", "A bound on columns"), each naming its column.
 */
import type { ReportWarning } from '../manifest';
import { DEFAULT_MAX_KEYS_PER_OBJECT } from './flatten';
import type { BreakCode } from './values';

/** A type break, or an object kept whole as JSON text because it had more keys than the bound. */
export type WarningCode = BreakCode | 'OBJECT_AS_JSON';

const WHAT: Record<BreakCode, string> = {
  TYPE_BREAK: 'values that do not fit its type',
  LONG_INTEGER: 'integers too long for its type',
  NON_FINITE: 'numbers too large for a double',
};

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
      message: `Column ${column} received ${count} objects of more than ${maxKeys} keys (data used as keys, such as per-country counts); each is kept whole as JSON text in ${column} instead of a column per key, which would grow the report by a column for every key ever seen (output.maxKeysPerObject). Read it with a JSON function, e.g. DuckDB json_extract or Athena json_extract_scalar.`,
    };
  }
  return {
    code,
    column,
    count,
    message: `Column ${column} received ${count} ${WHAT[code]}; they are null in ${column} and kept unaltered as text in ${raw}. Declare the column's type under the report's columns: in the config if the API changed it.`,
  };
}
