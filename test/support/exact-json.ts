/**
 * An independent reader of JSON text that loses nothing (not a test file): numbers keep their source
 * text, objects keep every key in order (`__proto__` included, repeats included), strings keep lone
 * surrogates. Written for the property tests so that what they compare is read by code other than the
 * exporter's own parser (`functions/core/api/json.ts`). Also exact decimal arithmetic on number text.
 */

/** A JSON value as sent: `{ num }` is a number's text, `{ entries }` an object's keys in order. */
export type Exact =
  | null
  | boolean
  | string
  | { readonly num: string }
  | readonly Exact[]
  | { readonly entries: readonly (readonly [string, Exact])[] };

export function isNum(v: Exact): v is { readonly num: string } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && 'num' in v;
}

export function isObj(v: Exact): v is { readonly entries: readonly (readonly [string, Exact])[] } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && 'entries' in v;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Parses one JSON document; throws a SyntaxError naming the position on anything else. */
export function parseExact(text: string): Exact {
  let i = 0;
  const fail = (): never => {
    throw new SyntaxError(`not JSON at ${i}: ${JSON.stringify(text.slice(i, i + 20))}`);
  };
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text.charAt(i))) i += 1;
  };
  const str = (): string => {
    // JSON.parse of the one string token: escapes, including lone \udXXX, come out as UTF-16 units
    const start = i;
    i += 1;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail();
    i += 1;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): Exact => {
    ws();
    const c = text[i];
    if (c === '"') return str();
    if (c === '[') {
      i += 1;
      const items: Exact[] = [];
      ws();
      if (text[i] === ']') {
        i += 1;
        return items;
      }
      for (;;) {
        items.push(value());
        ws();
        if (text[i] === ']') break;
        if (text[i] !== ',') fail();
        i += 1;
      }
      i += 1;
      return items;
    }
    if (c === '{') {
      i += 1;
      const entries: [string, Exact][] = [];
      ws();
      if (text[i] === '}') {
        i += 1;
        return { entries };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const key = str();
        ws();
        if (text[i] !== ':') fail();
        i += 1;
        entries.push([key, value()]);
        ws();
        if (text[i] === '}') break;
        if (text[i] !== ',') fail();
        i += 1;
      }
      i += 1;
      return { entries };
    }
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) return fail();
    i += m[0].length;
    return { num: m[0] };
  };
  const v = value();
  ws();
  if (i !== text.length) fail();
  return v;
}

/** A decimal number exactly: (-1)^neg × digits × 10^exp, digits without leading or trailing zeros ('' = 0). */
export interface Decimal {
  readonly neg: boolean;
  readonly digits: string;
  readonly exp: bigint;
}

const NUMBER_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** The exact value of a number's text (JSON's form, also `1e+21`, `Infinity` excluded); null when not a number. */
export function decimalOf(text: string): Decimal | null {
  const m = NUMBER_TEXT.exec(text.trim());
  if (m === null || `${m[2]}${m[3] ?? ''}` === '') return null;
  const whole = m[2] ?? '';
  const frac = m[3] ?? '';
  let digits = `${whole}${frac}`.replace(/^0+/, '');
  let exp = BigInt(m[4] ?? '0') - BigInt(frac.length);
  const trailing = /0*$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  exp += BigInt(trailing);
  if (digits === '') exp = 0n;
  return { neg: m[1] === '-', digits, exp };
}

/** Same value, and the same sign even for zero (`-0` is not `0`). */
export function sameNumber(a: string, b: string): boolean {
  const x = decimalOf(a);
  const y = decimalOf(b);
  return x !== null && y !== null && x.neg === y.neg && x.digits === y.digits && x.exp === y.exp;
}

/** Whether the text is an integer (any form: `12`, `1.20e1`, `1e3`). */
export function isIntegerText(text: string): boolean {
  const d = decimalOf(text);
  return d !== null && d.exp >= 0n;
}

/** The exact integer of an integer text. */
export function bigintOf(text: string): bigint {
  const d = decimalOf(text);
  if (d === null || d.exp < 0n) throw new Error(`${text} is not an integer`);
  const v = BigInt(d.digits || '0') * 10n ** d.exp;
  return d.neg ? -v : v;
}

/** The exact sum of number texts, as a decimal text. */
export function exactSum(texts: readonly string[]): string {
  const ds = texts.map((t) => {
    const d = decimalOf(t);
    if (d === null) throw new Error(`${t} is not a number`);
    return d;
  });
  if (ds.length === 0) return '0';
  const scale = ds.reduce((min, d) => (d.exp < min ? d.exp : min), 0n);
  let sum = 0n;
  for (const d of ds) {
    const v = BigInt(d.digits || '0') * 10n ** (d.exp - scale);
    sum += d.neg ? -v : v;
  }
  return scale === 0n ? sum.toString() : `${sum}e${scale}`;
}

/** The shortest text that reads back as this double, with the sign of a zero kept. */
export function doubleText(d: number): string {
  return Object.is(d, -0) ? '-0' : String(d);
}
