/**
 * Small pure helpers shared by the HTML and text renderers: escaping, number formatting, truncation,
 * header-safe text. Everything that came from the API goes through `escapeHtml` before it reaches HTML.
 */
import type { ColumnType } from '../manifest';

/** C0 and C1 control characters (CR, LF, tab, NUL …) and the Unicode line/paragraph separators. */
export const CONTROL_CHARS = /[\p{Cc}\u2028\u2029]/gu;

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes the five characters that matter in HTML text and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * Makes any text safe for a single-line header (subject, display name): line breaks, tabs and other
 * control characters become spaces, runs of spaces collapse, and the result is capped. CR/LF can then
 * never start a new header, whatever the config or the API sent.
 */
export function headerSafe(value: string, max = 200): string {
  return truncate(oneLine(value), max);
}

/** Same as `headerSafe` without a cap: for one-line values inside the body (cells, names). */
export function oneLine(value: string): string {
  return value.replace(CONTROL_CHARS, ' ').replace(/\s+/g, ' ').trim();
}

/** Cuts at `max` code points (never inside a surrogate pair) and marks the cut with an ellipsis. */
export function truncate(value: string, max: number): string {
  const chars = Array.from(value);
  if (chars.length <= max) return value;
  return `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/**
 * An en-US number format made on first use, not when the module loads: the process's first
 * `Intl.NumberFormat` loads ICU's locale data (~15–30 ms), which every Lambda bundle importing this
 * module paid at cold start although only an email formats numbers (docs/performance.md, "Lambda").
 */
export function lazyNumberFormat(options: Intl.NumberFormatOptions): { format(value: number): string } {
  let f: Intl.NumberFormat | undefined;
  return {
    format: (value) => {
      f ??= new Intl.NumberFormat('en-US', options);
      return f.format(value);
    },
  };
}

const INTEGER = lazyNumberFormat({ maximumFractionDigits: 0 });
const DECIMAL = lazyNumberFormat({ minimumFractionDigits: 2, maximumFractionDigits: 2 });
const PERCENT = lazyNumberFormat({ minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Integers with thousands separators; doubles (money, rates) with 2 decimals; never NaN/Infinity. */
export function formatNumber(value: number, type: ColumnType | 'auto' = 'auto'): string {
  if (!Number.isFinite(value)) return 'n/a';
  const integral = type === 'int64' || (type === 'auto' && Number.isInteger(value));
  return (integral ? INTEGER : DECIMAL).format(integral ? Math.round(value) : value);
}

/** `+1,234` / `-1,234` / `0`. */
export function formatSigned(value: number, type: ColumnType | 'auto' = 'auto'): string {
  if (value === 0) return '0';
  const body = formatNumber(Math.abs(value), type);
  return value > 0 ? `+${body}` : `-${body}`;
}

/** `+12.5%` / `-3.0%`; the caller guarantees a finite ratio. */
export function formatPercent(ratio: number): string {
  const pct = ratio * 100;
  if (!Number.isFinite(pct)) return 'n/a';
  const body = PERCENT.format(Math.abs(pct));
  if (body === '0.0') return '0.0%';
  return pct > 0 ? `+${body}%` : `-${body}%`;
}

/** A table cell value as text: numbers by column type, null as an em dash, strings one-lined. */
export function formatCell(value: string | number | boolean | null, type: ColumnType | undefined): string {
  if (value === null) return '—';
  if (typeof value === 'number') return formatNumber(value, type === 'double' ? 'double' : 'auto');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return oneLine(value);
}

/** Bytes for people: `812 B`, `4.2 KiB`, `12.3 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** `["ins_0001","ins_0002"]` → `ins_0001, ins_0002`; `[]` → em dash; any other text unchanged. */
export function readableList(value: string): string {
  if (!value.startsWith('[')) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed) && parsed.every((v) => v === null || typeof v !== 'object')) {
      return parsed.length === 0 ? '—' : parsed.map((v) => String(v)).join(', ');
    }
  } catch {
    // not JSON: shown as the text it is
  }
  return value;
}
