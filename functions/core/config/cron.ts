/**
 * Static checks of EventBridge Scheduler expressions: `cron(...)`-style six-field crons (written with
 * or without the `cron( )` wrapper) and `rate(N unit)`. Occurrences are computed elsewhere.
 */
const FIELD_RULES: readonly { name: string; pattern: RegExp; min: number; max: number }[] = [
  { name: 'minutes', pattern: /^[0-9,\-*/]+$/, min: 0, max: 59 },
  { name: 'hours', pattern: /^[0-9,\-*/]+$/, min: 0, max: 23 },
  { name: 'day-of-month', pattern: /^([0-9,\-*/?LW]+)$/, min: 1, max: 31 },
  { name: 'month', pattern: /^[0-9A-Za-z,\-*/]+$/, min: 1, max: 12 },
  { name: 'day-of-week', pattern: /^[0-9A-Za-z,\-*/?L#]+$/, min: 1, max: 7 },
  { name: 'year', pattern: /^[0-9,\-*/]+$/, min: 1970, max: 2199 },
];

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

export type ScheduleExpression =
  | { kind: 'cron'; fields: readonly string[]; text: string }
  | { kind: 'rate'; value: number; unit: 'minutes' | 'hours' | 'days'; text: string };

/** Returns the parsed expression, or the reason it is invalid. */
export function parseScheduleExpression(input: string): ScheduleExpression | { error: string } {
  const text = input.trim();
  const rate = /^rate\(\s*(\d+)\s+(minute|minutes|hour|hours|day|days)\s*\)$/.exec(text);
  if (rate) {
    const value = Number(rate[1]);
    const unitWord = rate[2] ?? '';
    if (value < 1) return { error: 'rate value must be a positive whole number' };
    if ((value === 1) !== !unitWord.endsWith('s')) {
      return { error: `write "rate(1 ${unitWord.replace(/s$/, '')})" for 1 and the plural for more` };
    }
    const unit = (unitWord.endsWith('s') ? unitWord : `${unitWord}s`) as 'minutes' | 'hours' | 'days';
    return { kind: 'rate', value, unit, text: `rate(${value} ${unitWord})` };
  }
  if (text.startsWith('rate(')) return { error: 'rate must look like "rate(1 day)" or "rate(6 hours)"' };
  const inner = /^cron\((.*)\)$/.exec(text)?.[1] ?? text;
  const fields = inner.trim().split(/\s+/);
  if (fields.length !== 6) {
    const hint = fields.length === 5 ? fiveFieldHint(fields) : '';
    return {
      error: `an EventBridge cron has 6 fields (minutes hours day-of-month month day-of-week year), got ${fields.length}: "${inner}"${hint}`,
    };
  }
  for (const [i, rule] of FIELD_RULES.entries()) {
    const field = fields[i] ?? '';
    if (!rule.pattern.test(field))
      return { error: `cron ${rule.name} field "${field}" has characters it cannot take` };
    const problem = checkNumbers(field, rule, i);
    if (problem) return { error: problem };
  }
  const dom = fields[2] ?? '';
  const dow = fields[4] ?? '';
  if ((dom === '?') === (dow === '?')) {
    return { error: 'cron needs "?" in exactly one of day-of-month and day-of-week (e.g. "0 8 ? * MON *")' };
  }
  const special = specialDayProblem(dom, dow);
  if (special) return { error: special };
  return { kind: 'cron', fields, text: `cron(${fields.join(' ')})` };
}

/**
 * The L, W and # forms EventBridge documents, each alone in its field: day-of-month `L` (last day)
 * or `nW` (weekday nearest day n); day-of-week `L` (Saturday), `nL` (last such weekday of the month)
 * or `n#k` (k-th such weekday). Anything else (`LW`, `L-3`, `1W,15W`, `MON#1,FRI#3`) is refused:
 * EventBridge does not document it, so `backfill` could not reproduce what it would fire.
 */
function specialDayProblem(dom: string, dow: string): string | null {
  if (/[LW]/.test(dom) && !/^(L|\d{1,2}W)$/.test(dom)) {
    return `cron day-of-month "${dom}" is not a form EventBridge documents: use L (last day of the month) or nW (the weekday nearest day n), each alone in the field`;
  }
  if (/[L#]/.test(dow) && !/^(L|([1-7]|SUN|MON|TUE|WED|THU|FRI|SAT)(L|#[1-5]))$/i.test(dow)) {
    return `cron day-of-week "${dow}" is not a form EventBridge documents: use L, nL (the last such weekday of the month) or n#k (the k-th), each alone in the field`;
  }
  return null;
}

/** The 6-field EventBridge cron equivalent to a classic 5-field cron, as a hint for the message. */
function fiveFieldHint(fields: readonly string[]): string {
  const [min = '', hour = '', dom = '', month = '', dow = ''] = fields;
  // "?" is EventBridge's own: this is an EventBridge cron that lacks its year field
  if (dom === '?' || dow === '?') {
    return `; the year field is missing: "cron(${[...fields, '*'].join(' ')})" runs every year`;
  }
  if (dom !== '*' && dow !== '*') {
    return '; EventBridge cannot combine a day of month with a day of week: keep one and write "?" in the other';
  }
  // classic cron counts weekdays 0–7 from Sunday (0 and 7 both Sunday); EventBridge 1–7 (SUN–SAT)
  const weekdays = dow.replace(/\d/g, (d) => DAYS[Number(d) % 7] ?? d);
  const six = dow === '*' ? [min, hour, dom, month, '?', '*'] : [min, hour, '?', month, weekdays, '*'];
  return `; the EventBridge equivalent is "cron(${six.join(' ')})"`;
}

function checkNumbers(
  field: string,
  rule: { name: string; min: number; max: number },
  index: number,
): string | null {
  for (const part of field.split(',')) {
    const [range = '', step] = part.split('/');
    if (step !== undefined && !/^[1-9]\d*$/.test(step))
      return `cron ${rule.name} step "${step}" must be a positive whole number`;
    const nth = /#(\d+)$/.exec(range)?.[1];
    if (nth !== undefined && (Number(nth) < 1 || Number(nth) > 5))
      return `cron ${rule.name} "#${nth}" must name the 1st to 5th weekday of the month`;
    const bounds = range.split('-');
    if (bounds.length === 2) {
      const [a = 0, b = 0] = bounds.map((t) => ordinal(t, index));
      if (a > b) {
        return `cron ${rule.name} range "${range}" runs backwards (${bounds[0]} comes after ${bounds[1]}); write the smaller value first, or two ranges for a span that wraps around`;
      }
    }
    for (const token of bounds) {
      // Only a number takes the L/W suffix ("5L", "15W"); a name such as JUL keeps its final L.
      const bare = token.replace(/#\d+$/, '').replace(/^(\d+)[LW]$/, '$1');
      if (bare === '' || bare === '*' || bare === '?' || bare === 'L' || bare === 'LW') continue;
      let n: number;
      if (/^\d+$/.test(bare)) n = Number(bare);
      else if (index === 3 && MONTHS.includes(bare.toUpperCase())) continue;
      else if (index === 4 && DAYS.includes(bare.toUpperCase())) continue;
      else return `cron ${rule.name} field has an unknown value "${token}"`;
      if (n < rule.min || n > rule.max)
        return `cron ${rule.name} value ${n} is outside ${rule.min}–${rule.max}`;
    }
  }
  return null;
}

/** The number a range bound stands for (month and weekday names included); NaN when not a plain value. */
function ordinal(token: string, index: number): number {
  if (/^\d+$/.test(token)) return Number(token);
  const names = index === 3 ? MONTHS : index === 4 ? DAYS : [];
  const i = names.indexOf(token.toUpperCase());
  return i >= 0 ? i + 1 : Number.NaN;
}
