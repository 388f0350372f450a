/**
 * Units by the metric's name: money (in the configured currency, via Intl), seconds (watch time,
 * durations) and percentages (rates, sent by the API as fractions: 0.0734 → 7.34%). Everything else is
 * a plain number by its column type. Never NaN or Infinity.
 */
import type { ColumnType } from '../manifest';
import { formatNumber } from './format';
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
  if (PERCENT_LAST.has(last)) return 'percent';
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
const PERCENT = new Intl.NumberFormat('en-US', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 2,
});
const ONE_DECIMAL = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

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
    format = currency ? (v) => moneyFormat(currency).format(v) : (v) => formatNumber(v, 'double');
  } else if (unit === 'percent') format = (v) => PERCENT.format(v);
  else if (unit === 'seconds') format = formatSeconds;
  const safe = (v: number) => (Number.isFinite(v) ? format(v) : 'n/a');
  return {
    unit,
    format: safe,
    signed: (v) => (v === 0 ? '0' : `${v > 0 ? '+' : '-'}${safe(Math.abs(v))}`),
  };
}
