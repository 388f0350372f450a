/**
 * Manifest totals: exact sums of additive counters only (docs/export.md, "Totals"). A metric is additive unless
 * its name says it is an average, rate, ratio, share of something, reach/frequency-like (unique
 * counts do not add across rows) or a return on investment — see `isAdditiveMetric`.
 *
 * Sums are exact: each value is added as a scaled decimal BigInt (its shortest decimal text, the
 * form JSON sent it in), so 0.1 + 0.2 totals 0.3 and integer counters never lose precision. A total
 * a JSON number cannot hold exactly is written as its exact decimal text (`TotalValue`); a metric
 * with no numeric value in any row has no total.
 */
import type { TotalValue } from '../manifest';
import type { Cell } from './flatten';
import { RATIO_WORDS, words } from './words';

/** Whole camelCase/snake_case words that mark a metric as not summable. */
const NON_ADDITIVE_WORDS = new Set([
  ...RATIO_WORDS,
  // people counted once each: summing windows or rows would count them again
  'reach',
  'unique',
  'uniques',
]);
/** Explicit names that the word rule would not catch. */
const NON_ADDITIVE_NAMES = new Set(['returnOnInvestment', 'costPerClick', 'costPerMille', 'engagement_rate']);

/**
 * Whether a metric may be summed across rows. `shares` (a counter) is additive; `share`,
 * `shareOfVoice` (a proportion) is not — the rule compares whole words, not substrings.
 */
export function isAdditiveMetric(name: string): boolean {
  if (NON_ADDITIVE_NAMES.has(name)) return false;
  return !words(name).some((w) => NON_ADDITIVE_WORDS.has(w));
}

/** A decimal as `mantissa / 10^scale`, JSON-friendly for checkpoints. */
export interface DecimalSum {
  readonly mantissa: string;
  readonly scale: number;
}

/** A finite number as an exact scaled decimal, from its shortest decimal text (`1e-7`, `1.5e+21`). */
function parseDecimal(value: number): { m: bigint; scale: number } {
  const [mant = '0', exp = '0'] = String(value).toLowerCase().split('e');
  const negative = mant.startsWith('-');
  const [int = '0', frac = ''] = (negative ? mant.slice(1) : mant).split('.');
  let digits = BigInt(int + frac);
  let scale = frac.length - Number(exp);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { m: negative ? -digits : digits, scale };
}

/**
 * The scale of a finite double's shortest decimal text when that text has at most 15 significant
 * digits and at most 15 after the point (`3162.51` → 2), found without making the text; 0 for a
 * whole number and any other value (left to `parseDecimal`). Exact: `n / 10^s === v` says the decimal `n·10^-s` rounds to
 * `v`, and two decimals of at most 15 significant digits never round to the same double, so it is the
 * shortest text's value; the smallest such `s` is its scale.
 */
function shortScale(v: number): number {
  if (Number.isInteger(v)) return 0;
  for (let s = 1, p = 10; s <= 15; s++, p *= 10) {
    const n = Math.round(v * p);
    if (Math.abs(n) >= 1e15) return 0;
    if (n / p === v) return s;
  }
  return 0;
}

/** `m / 10^scale` as decimal text without trailing fraction zeros. */
function decimalText(m: bigint, scale: number): string {
  if (scale === 0) return m.toString();
  const negative = m < 0n;
  const digits = (negative ? -m : m).toString().padStart(scale + 1, '0');
  const frac = digits.slice(-scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}${frac ? `.${frac}` : ''}`;
}

/** The manifest's form of an exact decimal: a number when it is exactly that, else its text. */
/** The smallest normal double, 2^-1022. */
const MIN_NORMAL = 2 ** -1022;

export function totalValue(m: bigint, scale: number): TotalValue {
  const text = decimalText(m, scale);
  if (!text.includes('.')) {
    return m <= BigInt(Number.MAX_SAFE_INTEGER) && m >= -BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(text)
      : text;
  }
  // a decimal of at most 15 significant digits round-trips through a double exactly — a normal one:
  // below 2^-1022 a double has fewer digits (-39e-324 reads as -4e-323)
  const significant = text.replace(/[-.]/g, '').replace(/^0+/, '');
  const n = Number(text);
  return significant.length <= 15 && Math.abs(n) >= MIN_NORMAL ? n : text;
}

export class Totals {
  private readonly sums = new Map<string, { m: bigint; scale: number }>();

  constructor(from?: Readonly<Record<string, DecimalSum>>) {
    for (const [name, d] of Object.entries(from ?? {}))
      this.sums.set(name, { m: BigInt(d.mantissa), scale: d.scale });
  }

  /**
   * Adds every numeric cell (numbers and integers beyond 2^53) of an additive metric column. A metric
   * that has had no numeric value yet has no total at all (SQL's SUM of nulls is NULL, not 0).
   */
  addColumn(name: string, cells: readonly Cell[]): void {
    if (!isAdditiveMetric(name)) return;
    let acc = this.sums.get(name);
    // Fast path: whole numbers add up in a double while the running sum stays exactly representable.
    let whole = 0;
    // Fractions of at most 15 significant digits (`3162.51`), by their scale: `byScale[s]` holds the
    // sum of their mantissas (`316251` at scale 2), whole numbers in a double while exactly so.
    let byScale: number[] | undefined;
    let seen = false;
    for (const v of cells) {
      if (typeof v === 'bigint') {
        seen = true;
        acc ??= { m: 0n, scale: 0 };
        acc.m += v * 10n ** BigInt(acc.scale);
        continue;
      }
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      seen = true;
      if (Number.isSafeInteger(v) && Math.abs(whole) + Math.abs(v) <= Number.MAX_SAFE_INTEGER) {
        whole += v;
        continue;
      }
      const scale = shortScale(v);
      if (scale > 0) {
        byScale ??= [];
        const sum = (byScale[scale] ?? 0) + Math.round(v * 10 ** scale);
        if (Math.abs(sum) <= Number.MAX_SAFE_INTEGER) {
          byScale[scale] = sum;
          continue;
        }
      }
      acc ??= { m: 0n, scale: 0 };
      const d = parseDecimal(v);
      if (d.scale > acc.scale) acc = { m: acc.m * 10n ** BigInt(d.scale - acc.scale), scale: d.scale };
      acc.m += d.m * 10n ** BigInt(acc.scale - d.scale);
    }
    if (!seen) return;
    acc ??= { m: 0n, scale: 0 };
    acc.m += BigInt(whole) * 10n ** BigInt(acc.scale);
    for (const [scale, sum] of (byScale ?? []).entries()) {
      if (sum === undefined) continue;
      if (scale > acc.scale) acc = { m: acc.m * 10n ** BigInt(scale - acc.scale), scale };
      acc.m += BigInt(sum) * 10n ** BigInt(acc.scale - scale);
    }
    this.sums.set(name, acc);
  }

  /** The totals for the manifest, exact: numbers where a double is the sum, decimal strings otherwise. */
  result(): Record<string, TotalValue> {
    // entries, then fromEntries: a metric named "__proto__" stays an own key of the result
    return Object.fromEntries([...this.sums].map(([name, { m, scale }]) => [name, totalValue(m, scale)]));
  }

  snapshot(): Record<string, DecimalSum> {
    return Object.fromEntries(
      [...this.sums].map(([name, { m, scale }]) => [name, { mantissa: m.toString(), scale }]),
    );
  }
}
