/**
 * Units by the metric's name: money (in the configured currency, via Intl), seconds (watch time,
 * durations) and percentages (rates, sent by the API as fractions: 0.0734 → 7.34%). Everything else is
 * a plain number by its column type. Never NaN or Infinity.
 */
import type { ColumnType } from '../manifest';
import { formatNumber, lazyNumberFormat } from './format';
import { words } from './labels';

export type Unit = 'money' | 'seconds' | 'percent' | 'number';

const MONEY = new Set(['spend', 'cost', 'revenue', 'budget', 'earnings', 'price', 'payout', 'sales']);
const MONEY_FIRST = new Set(['cpm', 'cpc', 'cpa', 'cpe', 'cpv']);
const PERCENT_LAST = new Set(['rate', 'ctr', 'percentage', 'percent']);

/** What a metric measures, from its name (either spelling). */
export function unitOf(name: string): Unit {
  const w = words(name);
  const last = w.at(-1) ?? '';
  if (w.some((x) => MONEY.has(x)) || MONEY_FIRST.has(w[0] ?? '')) return 'money';
  // a return on investment is sent as a fraction (-0.06: 6 % lost), like a rate
  if (PERCENT_LAST.has(last) || w.includes('roi') || w.join(' ').includes('return on investment'))
    return 'percent';
  if (last === 'seconds' || last === 'duration' || (last === 'time' && w.length > 1)) return 'seconds';
  return 'number';
}

const money = new Map<string, Intl.NumberFormat>();
function moneyFormat(currency: string): Intl.NumberFormat {
  let f = money.get(currency);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' });
    money.set(currency, f);
  }
  return f;
}
/** From here on money is shown in whole units (the files keep the cents). */
export const WHOLE_MONEY_FROM = 100_000;
const whole = new Map<string, Intl.NumberFormat>();
function wholeMoney(currency: string): Intl.NumberFormat {
  let f = whole.get(currency);
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      maximumFractionDigits: 0,
    });
    whole.set(currency, f);
  }
  return f;
}
const PERCENT = lazyNumberFormat({ style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 2 });
const ONE_DECIMAL = lazyNumberFormat({ maximumFractionDigits: 1 });
const WHOLE = lazyNumberFormat({ maximumFractionDigits: 0 });

/** `12.3 s`, `4 min 05 s`, `1,234 h 05 min`. */
export function formatSeconds(value: number): string {
  const s = Math.abs(value);
  const sign = value < 0 ? '-' : '';
  if (s < 60) return `${sign}${ONE_DECIMAL.format(s)} s`;
  if (s < 3600) {
    const m = Math.floor(s / 60);
    return `${sign}${m} min ${String(Math.round(s - m * 60)).padStart(2, '0')} s`;
  }
  const h = Math.floor(s / 3600);
  return `${sign}${WHOLE.format(h)} h ${String(Math.round((s - h * 3600) / 60)).padStart(2, '0')} min`;
}

/** Above this a number is abbreviated (`1.2 T`): its 13+ digits are unreadable in a card. */
export const ABBREVIATE_FROM = 1e12;
const SCALES: readonly [number, string][] = [
  [1e12, 'T'],
  [1e9, 'B'],
];
const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/**
 * `1.2 T`, `-3.4 T`, and beyond 1,000 T a power of ten (`9.2 × 10¹⁸`): the exact value is in the files.
 * `body` formats the abbreviated mantissa (so money keeps its currency symbol).
 */
export function abbreviate(
  value: number,
  body: (v: number) => string = (v) => ONE_DECIMAL.format(v),
): string {
  const s = Math.abs(value);
  const sign = value < 0 ? '-' : '';
  if (s >= 1e15) {
    const exp = Math.floor(Math.log10(s));
    const sup = String(exp).replace(/\d/g, (d) => SUPERSCRIPT[Number(d)] ?? d);
    return `${sign}${body(s / 10 ** exp)} × 10${sup}`;
  }
  const [scale, suffix] = SCALES.find(([n]) => s >= n) ?? [1, ''];
  return `${sign}${body(s / scale)}${suffix ? ` ${suffix}` : ''}`;
}

export interface ValueFormat {
  readonly unit: Unit;
  /** The value for people, with its unit. */
  format(value: number): string;
  /** A change: `+€1,234.00`, `-3.2 s`, `+1,234`; `0` for none. */
  signed(value: number): string;
}

/** How to show one metric's values. Money needs a currency; without one it is a plain 2-decimal number. */
export function valueFormat(name: string, type: ColumnType | undefined, currency?: string): ValueFormat {
  const unit = unitOf(name);
  const plain = (v: number) =>
    formatNumber(v, type === 'double' ? 'double' : type === 'int64' ? 'int64' : 'auto');
  let format: (v: number) => string = plain;
  if (unit === 'money') {
    // cents matter on small amounts; on €3,006,870.99 they only make the number too wide for a card
    format = currency
      ? (v) =>
          Math.abs(v) >= WHOLE_MONEY_FROM ? wholeMoney(currency).format(v) : moneyFormat(currency).format(v)
      : (v) =>
          Math.abs(v) >= WHOLE_MONEY_FROM ? formatNumber(Math.round(v), 'int64') : formatNumber(v, 'double');
  } else if (unit === 'percent') format = (v) => PERCENT.format(v);
  else if (unit === 'seconds') format = formatSeconds;
  const short =
    unit === 'money' && currency
      ? (v: number) =>
          abbreviate(v, (m) =>
            moneyFormat(currency)
              .format(Math.round(m * 10) / 10)
              .replace(/\.00$|0$/, ''),
          )
      : (v: number) => abbreviate(v);
  const safe = (v: number) =>
    !Number.isFinite(v) ? 'n/a' : unit !== 'percent' && Math.abs(v) >= ABBREVIATE_FROM ? short(v) : format(v);
  return {
    unit,
    format: safe,
    signed: (v) => (v === 0 ? '0' : `${v > 0 ? '+' : '-'}${safe(Math.abs(v))}`),
  };
}
