/**
 * Occurrences of a schedule expression between two local dates (backfill). EventBridge Scheduler
 * evaluates `cron(...)` in the schedule's timezone with AWS's own six-field dialect (a year field, `?`),
 * which general cron libraries do not read as AWS does, and `cron.ts` already parses it; so this walks
 * the local calendar day by day with luxon, expands the minute/hour fields, and maps each local
 * wall-clock time back to an instant (a time skipped by a DST change moves forward, as luxon does; a
 * repeated hour fires once, at the standard-time instance, as luxon resolves it). `rate(N unit)` has no anchor of its own: for a
 * backfill it is anchored at the start of `from`.
 */
import { DateTime } from 'luxon';
import { parseScheduleExpression } from './config/cron';
import { ExporterError } from './errors';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** Every occurrence from `from` 00:00 to the end of `to` (local dates, inclusive), oldest first. */
export function occurrences(expression: string, timezone: string, from: string, to: string): Date[] {
  const start = DateTime.fromISO(from, { zone: timezone }).startOf('day');
  const end = DateTime.fromISO(to, { zone: timezone }).plus({ days: 1 }).startOf('day');
  if (!start.isValid || !end.isValid || end <= start) {
    throw new ExporterError(
      'USAGE',
      `--from ${from} --to ${to} is not a valid date range (YYYY-MM-DD, from ≤ to)`,
    );
  }
  const parsed = parseScheduleExpression(expression);
  if ('error' in parsed) throw new ExporterError('CONFIG_INVALID', parsed.error);
  const out: Date[] = [];
  if (parsed.kind === 'rate') {
    for (let t = start; t < end; t = t.plus({ [parsed.unit]: parsed.value })) out.push(t.toJSDate());
    return out;
  }
  const [min = '', hour = '', dom = '', month = '', dow = '', year = ''] = parsed.fields;
  const minutes = expand(min, 0, 59);
  const hours = expand(hour, 0, 23);
  const seen = new Set<number>();
  for (let day = start; day < end; day = day.plus({ days: 1 })) {
    if (!matchesDay(day, dom, month, dow, year)) continue;
    for (const h of hours) {
      for (const m of minutes) {
        const t = DateTime.fromObject(
          { year: day.year, month: day.month, day: day.day, hour: h, minute: m },
          { zone: timezone },
        );
        const ms = t.toMillis();
        if (t < start || t >= end || seen.has(ms)) continue;
        seen.add(ms);
        out.push(t.toJSDate());
      }
    }
  }
  return out.sort((a, b) => a.getTime() - b.getTime());
}

function matchesDay(day: DateTime, dom: string, month: string, dow: string, year: string): boolean {
  if (!expand(year, 1970, 2199, []).includes(day.year)) return false;
  if (!expand(month, 1, 12, MONTHS).includes(day.month)) return false;
  if (dom !== '?' && !matchesDom(day, dom)) return false;
  if (dow !== '?' && !matchesDow(day, dow)) return false;
  return true;
}

function matchesDom(day: DateTime, field: string): boolean {
  const last = day.endOf('month').day;
  return field.split(',').some((part) => {
    if (part === 'L') return day.day === last;
    const w = /^(\d+)W$/.exec(part);
    if (w) return day.day === nearestWeekday(day, Math.min(Number(w[1]), last));
    return expand(part, 1, 31).includes(day.day);
  });
}

function matchesDow(day: DateTime, field: string): boolean {
  const eb = (day.weekday % 7) + 1; // EventBridge: 1 = SUN … 7 = SAT; luxon: 1 = MON … 7 = SUN
  return field.split(',').some((part) => {
    const nth = /^([0-9A-Za-z]+)#(\d)$/.exec(part);
    if (nth) return eb === value(nth[1] ?? '', DAYS, 1) && Math.ceil(day.day / 7) === Number(nth[2]);
    const lastOf = /^([0-9A-Za-z]+)L$/.exec(part);
    if (lastOf) return eb === value(lastOf[1] ?? '', DAYS, 1) && day.plus({ days: 7 }).month !== day.month;
    if (part === 'L') return eb === 7;
    return expand(part, 1, 7, DAYS).includes(eb);
  });
}

/** The weekday nearest to day `n` of `day`'s month, not leaving the month (cron `nW`). */
function nearestWeekday(day: DateTime, n: number): number {
  const target = day.set({ day: n });
  if (target.weekday <= 5) return n;
  if (target.weekday === 6) return n > 1 ? n - 1 : n + 2;
  return n < target.endOf('month').day ? n + 1 : n - 2;
}

function value(token: string, names: readonly string[], base: number): number {
  const i = names.indexOf(token.toUpperCase());
  return i >= 0 ? i + base : Number(token);
}

/** Expands `*`, `a`, `a-b`, `*\/n`, `a/n`, `a-b/n` and lists into the matching numbers. */
function expand(field: string, min: number, max: number, names: readonly string[] = []): number[] {
  const out = new Set<number>();
  for (const part of field.split(',')) {
    const [range = '*', stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    let lo = min;
    let hi = max;
    if (range !== '*' && range !== '?') {
      const [a = '', b] = range.split('-');
      lo = value(a, names, 1);
      hi = b === undefined ? (stepText === undefined ? lo : max) : value(b, names, 1);
    }
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return [...out].sort((a, b) => a - b);
}
