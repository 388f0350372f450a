/**
 * The type rule (docs/export.md "Types"): a column's type follows from its name and role, never from
 * one day's values, so it is the same in every run.
 *
 * - Metrics: DOUBLE when a whole word of the name marks an average, rate, ratio, share, score, ROI or
 *   money (spend, cost, revenue, value, sales, amount, price, …) — `avgWatchTime`, `roi`,
 *   `paidAdSpend`, `costPerClick`; INT64 (a counter) otherwise — `likes`, `shares`, `paidImpressions`.
 *   A metric never seen with a value takes this type too.
 * - Window columns: DATE.
 * - Other fields, when they first enter the model: from their values then (and fixed from then on):
 *   BOOLEAN, INT64 (whole numbers; DOUBLE when the name rule says so or a fraction is seen), DATE
 *   (real calendar dates only), TIMESTAMP (ISO date-times with a zone), else STRING. Names ending in
 *   `id`/`ids` are always STRING; a field never seen with a value is STRING.
 * - `columns: { name: type }` in the report's config overrides all of this for new columns.
 */
import type { ColumnType } from '../manifest';
import type { Cell } from './flatten';
import { isCalendarDate, isZonedDateTime } from './temporal';
import { RATIO_WORDS, words } from './words';

/** Whole words that make a metric a floating-point number. */
const FLOAT_WORDS = new Set([
  ...RATIO_WORDS,
  // money
  'spend',
  'spent',
  'cost',
  'costs',
  'revenue',
  'revenues',
  'value',
  'sales',
  'amount',
  'price',
  'budget',
  'earnings',
  'income',
  'profit',
  'fee',
  'fees',
  'payout',
  'gmv',
  'money',
]);

/** Whether the name says the number is fractional (an average, rate, ratio, share, ROI or money). */
export function isFloatName(name: string): boolean {
  return words(name).some((w) => FLOAT_WORDS.has(w));
}

export function metricType(name: string): ColumnType {
  return isFloatName(name) ? 'double' : 'int64';
}

const ID_NAME = /(?:^|_|[a-z0-9])(?:id|ids|Id|Ids|ID|IDs)$/;

/** The type of a field entering the model, from its name and the values seen with it then. */
export function fieldType(name: string, values: readonly Cell[]): ColumnType {
  if (ID_NAME.test(name)) return 'string';
  let bools = 0;
  let ints = 0;
  let fractions = 0;
  let dates = 0;
  let stamps = 0;
  let seen = 0;
  for (const v of values) {
    if (v === null) continue;
    seen += 1;
    if (typeof v === 'boolean') bools += 1;
    else if (typeof v === 'bigint') ints += 1;
    else if (typeof v === 'number') {
      if (Number.isInteger(v)) ints += 1;
      else fractions += 1;
    } else if (isCalendarDate(v)) dates += 1;
    else if (isZonedDateTime(v)) stamps += 1;
    else return 'string';
  }
  if (seen === 0) return 'string';
  if (bools === seen) return 'boolean';
  if (ints + fractions === seen) return fractions > 0 || isFloatName(name) ? 'double' : 'int64';
  if (dates === seen) return 'date';
  if (stamps === seen) return 'timestamp';
  return 'string';
}
