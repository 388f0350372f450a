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
    return {
      error: `an EventBridge cron has 6 fields (minutes hours day-of-month month day-of-week year), got ${fields.length}: "${inner}"`,
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
  return { kind: 'cron', fields, text: `cron(${fields.join(' ')})` };
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
    for (const token of range.split('-')) {
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
