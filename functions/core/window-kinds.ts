/**
 * The one table of window kinds a schedule may name (docs/config.md, "Windows"): the config schema
 * validates against it and `./window` computes each kind from it, so a kind added here must be
 * computed there (the `Record` over `FixedWindow` fails the type-check otherwise).
 */

export const FIXED_WINDOWS = ['yesterday', 'previous-week', 'previous-month', 'month-to-date'] as const;
export type FixedWindow = (typeof FIXED_WINDOWS)[number];

/** `last-N-days`: the N days before the scheduled date. */
export const LAST_N_DAYS = /^last-(\d+)-days$/;
export const MAX_LAST_N_DAYS = 366;

export function isFixedWindow(value: string): value is FixedWindow {
  return (FIXED_WINDOWS as readonly string[]).includes(value);
}

/** N of a valid `last-N-days`, else undefined. */
export function lastNDays(value: string): number | undefined {
  const m = LAST_N_DAYS.exec(value);
  const n = m ? Number(m[1]) : Number.NaN;
  return n >= 1 && n <= MAX_LAST_N_DAYS ? n : undefined;
}

/** Why `value` is not a window kind, or undefined when it is one. */
export function windowProblem(value: string): string | undefined {
  if (isFixedWindow(value) || lastNDays(value) !== undefined) return undefined;
  const fixed = FIXED_WINDOWS.filter((w) => w !== 'yesterday');
  return `unknown window "${value}"; use yesterday, last-N-days (1 ≤ N ≤ ${MAX_LAST_N_DAYS}), ${fixed.slice(0, -1).join(', ')} or ${fixed.at(-1)}`;
}
