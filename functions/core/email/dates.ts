/**
 * Dates for people: `16–22 Nov 2026`, `26 Oct – 1 Nov 2026`, the short form of the window a change is
 * compared with (`9–15 Nov`), and a revised window's name (`Week of 9 Nov`, `November 2026`). Dates
 * are calendar dates (no timezone arithmetic), in English whatever the host's locale, like the rest of
 * the email.
 */
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** `Jan` … `Dec`: each name's first three letters. */
const MONTHS = MONTH_NAMES.map((name) => name.slice(0, 3));
const DAY_MS = 86_400_000;

interface Ymd {
  readonly y: number;
  readonly m: number;
  readonly d: number;
}

function ymd(iso: string): Ymd | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return null;
  return { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
}

const mon = (x: Ymd) => MONTHS[x.m - 1] ?? String(x.m);

/** `12 Nov` or `12 Nov 2026`. */
export function formatDay(iso: string, withYear = false): string {
  const x = ymd(iso);
  if (!x) return iso;
  return `${x.d} ${mon(x)}${withYear ? ` ${x.y}` : ''}`;
}

/**
 * A date range: `16–22 Nov 2026`, `26 Oct – 1 Nov 2026`, `28 Dec 2025 – 3 Jan 2026`, `22 Nov 2026`.
 * `withYear: false` drops the year when start and end share it (the comparison's short form).
 */
export function formatRange(start: string, end: string, withYear = true): string {
  const a = ymd(start);
  const b = ymd(end);
  if (!a || !b) return `${start} – ${end}`;
  const year = withYear ? ` ${b.y}` : '';
  if (a.y !== b.y) return `${formatDay(start, true)} – ${formatDay(end, true)}`;
  if (a.m === b.m && a.d === b.d) return `${a.d} ${mon(a)}${year}`;
  if (a.m === b.m) return `${a.d}–${b.d} ${mon(b)}${year}`;
  return `${a.d} ${mon(a)} – ${b.d} ${mon(b)}${year}`;
}

/** `November 2026`. */
export function formatMonth(iso: string): string {
  const x = ymd(iso);
  if (!x) return iso;
  return `${MONTH_NAMES[x.m - 1] ?? x.m} ${x.y}`;
}

/** Calendar days from `start` to `end` (6 for a week); null when either is not a date. */
export function daysBetween(start: string, end: string): number | null {
  const a = ymd(start);
  const b = ymd(end);
  if (!a || !b) return null;
  return (Date.UTC(b.y, b.m - 1, b.d) - Date.UTC(a.y, a.m - 1, a.d)) / DAY_MS;
}

/** Whether `start`..`end` is one whole calendar month (the 1st to its last day). */
export function isWholeMonth(start: string, end: string): boolean {
  const a = ymd(start);
  const b = ymd(end);
  if (!a || !b) return false;
  // day 0 of the next month is this month's last day
  const lastDay = new Date(Date.UTC(a.y, a.m, 0)).getUTCDate();
  return a.d === 1 && b.y === a.y && b.m === a.m && b.d === lastDay;
}
