/**
 * Dates and date-times as they are recognised and encoded: only real calendar dates are dates
 * (`2026-02-30`, `0000-00-00`, `2026-13-45` are text), and only ISO 8601 date-times with a zone (`Z`
 * or `±hh:mm`) and at most microseconds are timestamps — a date-time without one names no instant, so it stays text.
 */
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const STAMP_RE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}(?::?\d{2})?)$/i;

const MS_PER_DAY = 86_400_000;

function realDay(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const days = [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 0;
  return d <= days;
}

function leap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function isCalendarDate(text: string): boolean {
  const m = DATE_RE.exec(text);
  return m !== null && realDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

const dayCache = new Map<string, number>();

/** A calendar date → days since 1970-01-01 (Parquet DATE), or null when it is not a real date. */
export function epochDay(date: string): number | null {
  const cached = dayCache.get(date);
  if (cached !== undefined) return cached;
  if (!isCalendarDate(date)) return null;
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number);
  const utc = new Date(0);
  utc.setUTCFullYear(y, m - 1, d);
  const day = Math.round(utc.getTime() / MS_PER_DAY);
  if (dayCache.size > 10_000) dayCache.clear();
  dayCache.set(date, day);
  return day;
}

export function isZonedDateTime(text: string): boolean {
  return canonicalMicros(text) !== undefined || parseMicros(text) !== null;
}

/** An ISO date-time with a zone → microseconds since the epoch, UTC (Parquet TIMESTAMP MICROS). */
export function epochMicros(text: string): bigint | null {
  const micros = epochMicrosValue(text);
  return micros === null ? null : BigInt(micros);
}

/** `epochMicros` as a number while it is a safe integer (every date-time before the year 2255). */
export function epochMicrosValue(text: string): number | bigint | null {
  const fast = canonicalMicros(text);
  if (fast !== undefined) return fast;
  const micros = parseMicros(text);
  return micros !== null && micros >= -(2n ** 53n) && micros <= 2n ** 53n ? Number(micros) : micros;
}

const ZERO = 48;

/** The digit at `i`, or -1. */
function digit(text: string, i: number): number {
  const c = text.charCodeAt(i) - ZERO;
  return c >= 0 && c <= 9 ? c : -1;
}

/** `text[i..i+n)` as a number of `n` digits, or -1 when one is not a digit. */
function digits(text: string, i: number, n: number): number {
  let v = 0;
  for (let k = i; k < i + n; k += 1) {
    const c = digit(text, k);
    if (c < 0) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * The common shape, `YYYY-MM-DDTHH:MM:SS[.f{1,6}]Z`, read without a regular expression or a `Date`
 * (the timestamp column is read once per cell): microseconds as a number, or undefined for any
 * other shape (left to `parseMicros`) or an instant a double cannot hold exactly.
 */
function canonicalMicros(text: string): number | undefined {
  const n = text.length;
  if (n < 20 || n > 27 || text.charCodeAt(n - 1) !== 90 /* Z */) return undefined;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':')
    return undefined;
  const y = digits(text, 0, 4);
  const mo = digits(text, 5, 2);
  const d = digits(text, 8, 2);
  const h = digits(text, 11, 2);
  const mi = digits(text, 14, 2);
  const s = digits(text, 17, 2);
  if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || s < 0) return undefined;
  let frac = 0;
  if (n > 20) {
    if (text[19] !== '.' || n === 21) return undefined;
    const f = digits(text, 20, n - 21);
    if (f < 0) return undefined;
    frac = f * 10 ** (27 - n);
  }
  if (!realDay(y, mo, d) || h > 23 || mi > 59 || s > 59 || y < 1000) return undefined;
  const micros = daysFromCivil(y, mo, d) * 86_400_000_000 + ((h * 60 + mi) * 60 + s) * 1_000_000 + frac;
  return Number.isSafeInteger(micros) ? micros : undefined;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`). */
function daysFromCivil(y0: number, m: number, d: number): number {
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Every other accepted shape: a space for `T`, no seconds, a lower-case `z`, an offset. */
function parseMicros(text: string): bigint | null {
  if (text.length > 40) return null;
  const m = STAMP_RE.exec(text);
  if (m === null) return null;
  const [, ys, mos, ds, hs, mis, ss = '0', frac = '', zone = 'Z'] = m;
  const y = Number(ys);
  const mo = Number(mos);
  const d = Number(ds);
  const h = Number(hs);
  const mi = Number(mis);
  const s = Number(ss);
  if (!realDay(y, mo, d) || h > 23 || mi > 59 || s > 59) return null;
  let offsetMin = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return null;
    offsetMin = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  const utc = new Date(0);
  utc.setUTCFullYear(y, mo - 1, d);
  utc.setUTCHours(h, mi, s, 0);
  const micros = BigInt(utc.getTime() - offsetMin * 60_000) * 1000n;
  return micros + BigInt(frac.padEnd(6, '0').slice(0, 6) || '0');
}
