/** The report warnings of values that broke their column's type (docs/export.md "Values that break a type"). */
import type { ReportWarning } from '../manifest';
import type { BreakCode } from './values';

const WHAT: Record<BreakCode, string> = {
  TYPE_BREAK: 'values that do not fit its type',
  LONG_INTEGER: 'integers too long for its type',
  NON_FINITE: 'numbers too large for a double',
};

export function warningFor(code: BreakCode, column: string, count: number, raw: string): ReportWarning {
  return {
    code,
    column,
    count,
    message: `Column ${column} received ${count} ${WHAT[code]}; they are null in ${column} and kept unaltered as text in ${raw}. Declare the column's type under the report's columns: in the config if the API changed it.`,
  };
}
