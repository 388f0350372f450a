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
  return epochMicros(text) !== null;
}

/** An ISO date-time with a zone → microseconds since the epoch, UTC (Parquet TIMESTAMP MICROS). */
export function epochMicros(text: string): bigint | null {
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
