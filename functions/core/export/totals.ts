/**
 * Manifest totals: exact sums of additive counters only (docs/export.md, "Totals"). A metric is additive unless
 * its name says it is an average, rate, ratio, share of something, reach/frequency-like (unique
 * counts do not add across rows) or a return on investment — see `isAdditiveMetric`.
 *
 * Sums are exact: each value is added as a scaled decimal BigInt (its shortest decimal text, the
 * form JSON sent it in), so 0.1 + 0.2 totals 0.3 and integer counters never lose precision. A total
 * beyond Number's exact range is left out of the manifest rather than written wrong.
 */
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

function parseDecimal(value: number): { m: bigint; scale: number } {
  let text = String(value);
  if (/e/i.test(text)) text = Math.abs(value) >= 1 ? BigInt(value).toString() : value.toFixed(20);
  const negative = text.startsWith('-');
  const [int = '0', frac = ''] = (negative ? text.slice(1) : text).split('.');
  const trimmed = frac.replace(/0+$/, '');
  const m = BigInt(int + trimmed);
  return { m: negative ? -m : m, scale: trimmed.length };
}

export class Totals {
  private readonly sums = new Map<string, { m: bigint; scale: number }>();

  constructor(from?: Readonly<Record<string, DecimalSum>>) {
    for (const [name, d] of Object.entries(from ?? {}))
      this.sums.set(name, { m: BigInt(d.mantissa), scale: d.scale });
  }

  /** Adds every numeric cell of an additive metric column. */
  addColumn(name: string, cells: readonly Cell[]): void {
    if (!isAdditiveMetric(name)) return;
    let acc = this.sums.get(name) ?? { m: 0n, scale: 0 };
    // Fast path: whole numbers add up in a double while the running sum stays exactly representable.
    let whole = 0;
    for (const v of cells) {
      if (typeof v !== 'number') continue;
      if (Number.isSafeInteger(v) && Math.abs(whole) + Math.abs(v) <= Number.MAX_SAFE_INTEGER) {
        whole += v;
        continue;
      }
      const d = parseDecimal(v);
      if (d.scale > acc.scale) acc = { m: acc.m * 10n ** BigInt(d.scale - acc.scale), scale: d.scale };
      acc.m += d.m * 10n ** BigInt(acc.scale - d.scale);
    }
    acc.m += BigInt(whole) * 10n ** BigInt(acc.scale);
    this.sums.set(name, acc);
  }

  /** The totals for the manifest; a sum Number cannot hold exactly is left out. */
  result(): Record<string, number> {
    // entries, then fromEntries: a metric named "__proto__" stays an own key of the result
    const out: [string, number][] = [];
    for (const [name, { m, scale }] of this.sums) {
      if (scale === 0) {
        if (m <= BigInt(Number.MAX_SAFE_INTEGER) && m >= -BigInt(Number.MAX_SAFE_INTEGER))
          out.push([name, Number(m)]);
        continue;
      }
      const negative = m < 0n;
      const digits = (negative ? -m : m).toString().padStart(scale + 1, '0');
      const text = `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
      const n = Number(text);
      // Only when the decimal fits a double's 15 significant digits is the Number the exact sum.
      if (digits.replace(/^0+/, '').replace(/0+$/, '').length <= 15) out.push([name, n]);
    }
    return Object.fromEntries(out);
  }

  snapshot(): Record<string, DecimalSum> {
    return Object.fromEntries(
      [...this.sums].map(([name, { m, scale }]) => [name, { mantissa: m.toString(), scale }]),
    );
  }
}
