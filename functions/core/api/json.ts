/**
 * JSON that keeps every digit (docs/export.md "Long integers"). `JSON.parse` turns
 * `9007199254740993` into …992 and `1e400` into Infinity. A body whose text holds a number of 16 or
 * more digits or with an exponent of three digits is parsed here instead: integers beyond 2^53 become `bigint`,
 * numbers a double cannot hold (`1e400`) keep their source text (a string), and every object is built
 * with `defineProperty`, so keys such as `__proto__` are ordinary keys. Any other body takes the
 * fast path (`JSON.parse`), measured in bench/RESULTS.md.
 */

import { validText, wellFormed } from '../unicode';

/**
 * Could `JSON.parse` alter a number in this text? A number token (at the text's start, or after `:`,
 * `,` or `[`) with 16 or more digits (a decimal point among them included: `9.007199254740993e15`),
 * or with an exponent of three or more digits. A false positive (such digits inside a string that
 * follows a `:`) only costs speed. Every page's whole text passes through here before `JSON.parse`:
 * digit runs are found by looking at every 16th character only (a run of 16 covers one), exponents by
 * a regular expression that starts at the rarer `e`/`E` after a digit. The one regular expression
 * anchored on every `:`, `,` and `[` that did both took 1.1–2.2 ms of a 625 KB page, these two
 * 0.6–1.0 ms (warm, bench data).
 */
export function mayAlterNumbers(text: string): boolean {
  return longDigitRun(text) || longExponent(text);
}

/** Not `0`–`9` or `.`, the characters of a number's mantissa (written out: called for every 16th character). */
const notRunChar = (c: number) => c > 0x39 || (c < 0x30 && c !== 0x2e);

/**
 * A run of 16 or more digits and points that starts a number token. Only every 16th character is
 * looked at until one is a digit or point; then the 15 before it say whether a run of 16 ends there,
 * or where the run began (the next look is 15 past that start).
 */
function longDigitRun(s: string): boolean {
  const n = s.length;
  // invariant: every run of 16 that starts before `probe - 15` has been looked at
  let probe = 15;
  while (probe < n) {
    if (notRunChar(s.charCodeAt(probe))) {
      probe += 16;
      continue;
    }
    let k = probe - 1;
    const stop = probe - 16;
    while (k > stop && !notRunChar(s.charCodeAt(k))) k -= 1;
    if (k > stop) {
      // the run holding `probe` starts at k + 1: a run of 16 from there would reach k + 16
      probe = k + 16;
      continue;
    }
    // 16 in a row end at `probe`: a number's, unless the run sits inside a string
    if (runStartsToken(s, probe)) return true;
    let end = probe + 1;
    while (end < n && !notRunChar(s.charCodeAt(end))) end += 1;
    probe = end + 16;
  }
  return false;
}

/** A digit, `e` or `E`, an optional sign, three digits: an exponent of three or more digits. */
const EXPONENT = /\d[eE][+-]?\d{3}/g;

/** An exponent of three or more digits in a number token. */
function longExponent(s: string): boolean {
  EXPONENT.lastIndex = 0;
  for (let m = EXPONENT.exec(s); m !== null; m = EXPONENT.exec(s)) {
    if (runStartsToken(s, m.index)) return true;
  }
  return false;
}

/**
 * Whether the run of digits and points that holds `at` starts a number token: before the run, past an
 * optional `-` and whitespace, `:`, `,`, `[` or the text's start.
 */
function runStartsToken(s: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && !notRunChar(s.charCodeAt(i))) i -= 1;
  if (i >= 0 && s.charCodeAt(i) === 0x2d) i -= 1;
  for (; i >= 0; i -= 1) {
    const c = s.charCodeAt(i);
    if (c === 0x3a || c === 0x2c || c === 0x5b) return true;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return true;
}

/**
 * A JSON number that no JavaScript number holds (docs/export.md "Numbers"): beyond a double's range
 * (`1e400`), so small it would become 0 (`1e-400`), or a fraction with more significant digits than
 * a double keeps (`0.10000000000000000001`). Kept as the text sent: a cell gets the text, JSON text
 * (an array kept whole) writes it unquoted, as the number it is.
 */
export class NumberText {
  constructor(readonly text: string) {}
}

export function parseJson(text: string): unknown {
  return mayAlterNumbers(text) ? new ExactParser(text).parseDocument() : JSON.parse(text);
}

class ExactParser {
  private i = 0;
  constructor(private readonly s: string) {}

  parseDocument(): unknown {
    const v = this.value();
    this.ws();
    if (this.i !== this.s.length) this.fail();
    return v;
  }

  private fail(): never {
    throw new SyntaxError(`Unexpected token in JSON at position ${this.i}`);
  }

  private ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.i += 1;
    }
  }

  private value(): unknown {
    this.ws();
    const c = this.s[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    return this.fail();
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.i += 1;
    this.ws();
    if (this.s[this.i] === '}') {
      this.i += 1;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail();
      const key = this.string();
      this.ws();
      if (this.s[this.i] !== ':') this.fail();
      this.i += 1;
      const v = this.value();
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      this.ws();
      const c = this.s[this.i];
      this.i += 1;
      if (c === '}') return out;
      if (c !== ',') this.fail();
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.i += 1;
    this.ws();
    if (this.s[this.i] === ']') {
      this.i += 1;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.ws();
      const c = this.s[this.i];
      this.i += 1;
      if (c === ']') return out;
      if (c !== ',') this.fail();
    }
  }

  private string(): string {
    const start = this.i;
    this.i += 1;
    let escaped = false;
    for (;;) {
      const c = this.s.charCodeAt(this.i);
      if (Number.isNaN(c) || c < 0x20) this.fail();
      this.i += 1;
      if (c === 0x5c) {
        escaped = true;
        this.i += 1;
      } else if (c === 0x22) break;
    }
    const raw = this.s.slice(start, this.i);
    return escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  }

  private number(): number | bigint | NumberText {
    const m = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    m.lastIndex = this.i;
    const found = m.exec(this.s);
    if (found === null) return this.fail();
    const text = found[0];
    this.i += text.length;
    return exactNumber(text, found[1] !== undefined || found[2] !== undefined);
  }
}

/**
 * A JSON number literal as the value that holds it exactly: a number when the double prints back as
 * the number sent (same digits, same power of ten), a bigint for an integer value it does not
 * (`9007199254740993`, `9.007199254740993e15`), else its `NumberText` (beyond range, underflow, a
 * fraction with more digits than a double keeps).
 */
function exactNumber(text: string, decorated: boolean): number | bigint | NumberText {
  const n = Number(text);
  if (!decorated) return Number.isSafeInteger(n) ? n : BigInt(text);
  if (!Number.isFinite(n)) return new NumberText(text);
  const sent = decimalParts(text);
  if (sent.digits === '') return n; // 0, 0.0, 0e5 (and -0: the sign kept by Number)
  if (n === 0) return new NumberText(text); // underflow
  const held = decimalParts(String(n));
  if (held.digits === sent.digits && held.exponent === sent.exponent) return n;
  if (sent.exponent >= 0) {
    const big = BigInt(sent.digits + '0'.repeat(sent.exponent));
    return text.startsWith('-') ? -big : big;
  }
  return new NumberText(text);
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** A string that is a JSON number literal (`"12"`, `"1e400"`) as `exactNumber` reads it; else null. */
export function numberLiteral(text: string): number | bigint | NumberText | null {
  const found = JSON_NUMBER.exec(text);
  return found === null ? null : exactNumber(text, found[1] !== undefined || found[2] !== undefined);
}

/** Significant digits (no leading/trailing zeros) and the power of ten of the last one. */
function decimalParts(text: string): { digits: string; exponent: number } {
  // only the sign of the number: `1e-1`'s minus belongs to its exponent
  const [mantissa = '', exp = '0'] = text.replace(/^-/, '').toLowerCase().split('e');
  const [int = '', frac = ''] = mantissa.split('.');
  const all = (int + frac).replace(/^0+/, '');
  const digits = all.replace(/0+$/, '');
  return { digits, exponent: Number(exp) - frac.length + (all.length - digits.length) };
}

function jsonString(text: string, onInvalid: (() => void) | undefined): string {
  if (wellFormed(text)) return JSON.stringify(text);
  onInvalid?.();
  return JSON.stringify(validText(text));
}

/**
 * Whether `JSON.stringify` writes `values` exactly as `toJsonText` would: an array (a row's hashtags,
 * ids) of well-formed strings, booleans, nulls and numbers other than -0 only (JSON.parse's numbers
 * are finite). A hot path: one such cell per row.
 */
function plainScalars(values: readonly unknown[]): boolean {
  for (const v of values) {
    if (typeof v === 'string') {
      if (!wellFormed(v)) return false;
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v) || Object.is(v, -0)) return false;
    } else if (v !== null && typeof v !== 'boolean') return false;
  }
  return true;
}

/**
 * JSON text of a parsed value, bigints as their digits, `-0` with its sign (for arrays kept as JSON
 * text in a cell).
 * Strings (keys too) are valid Unicode: a lone surrogate is U+FFFD, never a `\ud800` escape that
 * strict JSON readers refuse; `onInvalid` is told each time (the report's INVALID_TEXT warning).
 */
export function toJsonText(value: unknown, onInvalid?: () => void): string {
  if (typeof value === 'bigint') return value.toString();
  // JSON.stringify writes -0 as `0`: the sign sent is data (the cell's text keeps it, as CSV does)
  if (Object.is(value, -0)) return '-0';
  if (value instanceof NumberText) return value.text;
  if (typeof value === 'string') return jsonString(value, onInvalid);
  if (Array.isArray(value)) {
    if (plainScalars(value)) return JSON.stringify(value);
    return `[${value.map((v) => (v === undefined ? 'null' : toJsonText(v, onInvalid))).join(',')}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const parts: string[] = [];
    for (const k of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) parts.push(`${jsonString(k, onInvalid)}:${toJsonText(v, onInvalid)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
