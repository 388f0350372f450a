import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayAlterNumbers, NumberText, parseJson, toJsonText } from '#core/api/json';

const one = (literal: string) => (parseJson(`{"v":${literal},"pad":1234567890123456}`) as { v: unknown }).v;

describe('exact JSON numbers (issue 22)', () => {
  it('keeps numbers a double prints back as sent, and every digit of integers in any form', () => {
    expect(one('1.5e300')).toBe(1.5e300);
    expect(one('0.1')).toBe(0.1);
    expect(Object.is(one('-0.0'), -0)).toBe(true);
    expect(one('9.007199254740993e15')).toBe(9007199254740993n);
    expect(one('11135355536484952e+9')).toBe(11135355536484952000000000n);
    expect(one('-12345678901234567891')).toBe(-12345678901234567891n);
  });

  it('keeps the text of numbers no double holds: beyond range, underflow, more digits than a double keeps', () => {
    for (const text of ['1e400', '-1e-400', '0.10000000000000000001', '1.00000000000000000001e-5'])
      expect(one(text)).toEqual(new NumberText(text));
  });

  it('writes such numbers unquoted in JSON text (an array kept whole)', () => {
    const v = parseJson('{"a":[1e400,9007199254740993,0.5]}') as { a: unknown };
    expect(toJsonText(v.a)).toBe('[1e400,9007199254740993,0.5]');
  });

  it('reads a negative exponent without a sign before the number as a fraction (1e-1 is 0.1, not 10)', () => {
    // found by test/e2e/export-properties.test.ts: `1e-1` on a page parsed exactly was written as 10
    expect(one('1e-1')).toBe(0.1);
    expect(one('25e-3')).toBe(0.025);
    expect(one('-1e-1')).toBe(-0.1);
    expect(one('1E-7')).toBe(1e-7);
    expect(one('123456789012345678e-2')).toEqual(new NumberText('123456789012345678e-2'));
  });

  it('writes a lone surrogate inside JSON text as U+FFFD, keys too, and says so', () => {
    let told = 0;
    const text = toJsonText({ 'k\ud800': ['ab\udc00c', 'ok'] }, () => {
      told += 1;
    });
    expect(text).toBe('{"k\ufffd":["ab\ufffdc","ok"]}');
    expect(told).toBe(2);
  });

  it('writes any double inside JSON text so that it reads back as the same double, -0 with its sign', () => {
    // found by test/e2e/export-properties.test.ts: -0 inside an array kept as JSON text was written `0`
    expect(toJsonText([-0, { a: -0 }])).toBe('[-0,{"a":-0}]');
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1 }),
        (values) => {
          const back = (parseJson(`{"a":${toJsonText(values)}}`) as { a: unknown[] }).a;
          expect(back.length).toBe(values.length);
          // an integer beyond 2^53 reads back as a bigint (the exact reader's rule) of the text written,
          // the double's shortest decimal: the same double again
          values.forEach((v, i) => {
            const b = back[i];
            expect(typeof b === 'bigint' ? Number(b) === v : Object.is(b, v)).toBe(true);
          });
        },
      ),
      { seed: 22 },
    );
  });
});

describe('which texts take the exact parser (mayAlterNumbers)', () => {
  const digits = (min: number, max: number) =>
    fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
  // number literals of any length and form, the long ones near 16 digits and 3-digit exponents
  const literal = fc
    .tuple(
      fc.boolean(),
      digits(1, 22),
      fc.option(digits(1, 20), { nil: undefined }),
      fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 4)), {
        nil: undefined,
      }),
    )
    .map(([neg, int, frac, exp]) => {
      const i = int.replace(/^0+(?=\d)/, '');
      return `${neg ? '-' : ''}${i}${frac === undefined ? '' : `.${frac}`}${exp === undefined ? '' : exp.join('')}`;
    });
  const ws = fc.constantFrom('', ' ', '\n', '\t ', '\r\n');
  // strings that look like numbers, or like a `:` before one, which no number token is
  const str = fc
    .tuple(fc.constantFrom('', 'id ', ':', ',', '[', 'x-', '1e'), fc.oneof(literal, digits(0, 24)))
    .map(([a, b]) => JSON.stringify(a + b));
  const doc: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      literal,
      str,
      fc
        .array(
          fc.tuple(ws, tie('value'), ws).map((p) => p.join('')),
          { maxLength: 5 },
        )
        .map((a) => `[${a.join(',')}]`),
      fc
        .array(
          fc.tuple(str, ws, tie('value'), ws).map(([k, w, v, w2]) => `${k}${w}:${w}${v}${w2}`),
          { maxLength: 5 },
        )
        .map((a) => `{${a.join(',')}}`),
    ),
  })).value;

  it('leaves to JSON.parse only texts it parses exactly', () => {
    fc.assert(
      fc.property(doc, (text) => {
        // the long number after it sends the wrapped text through the exact parser
        const exact = (parseJson(`{"v":${text},"pad":1234567890123456}`) as { v: unknown }).v;
        expect(parseJson(text)).toEqual(exact);
      }),
      { seed: 24, numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
    );
  });

  it('sends every text the anchored expression it replaced found to the exact parser', () => {
    const anchored = /(?:^|[:,[])\s*-?\d(?:[\d.]{15}|[\d.]*[eE][+-]?\d{3})/;
    fc.assert(
      fc.property(doc, (text) => {
        if (anchored.test(text)) expect(mayAlterNumbers(text)).toBe(true);
      }),
      { seed: 24, numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
    );
  });

  it('finds a run of exactly 16 digits at any offset, after any run inside a string', () => {
    for (let k = 0; k < 34; k++) {
      for (let j = 0; j < 34; j++) {
        const before = `{"s":"${'y'.repeat(k)}12345678901234567890${'z'.repeat(j)}"`;
        expect(mayAlterNumbers(`${before},"v":9007199254740993,"t":"${'w'.repeat(40)}"}`), `${k}/${j}`).toBe(
          true,
        );
        expect(mayAlterNumbers(`${before},"v":900719925474099,"t":"${'w'.repeat(40)}"}`), `${k}/${j}`).toBe(
          false,
        );
      }
      // right after a string's run: `",` between the two
      expect(mayAlterNumbers(`["${'y'.repeat(k)}12345678901234567890",9007199254740993]`), `${k}`).toBe(true);
      // right after a short number: one comma between the two runs
      for (const key of ['a', 'ab'])
        expect(mayAlterNumbers(`{"${key}":[${'7,'.repeat(k)}9007199254740993]}`), `${key} ${k}`).toBe(true);
    }
  });

  it('finds a long number wherever it sits in a long page, and none inside strings', () => {
    const row =
      '{"postId":"17841405793187218","caption":"order 1234567890123456 at 1e400","n":[1.5,2e10],"likes":1474}';
    const page = (extra: string, at: number) => {
      const rows = Array.from({ length: 40 }, () => row);
      rows.splice(at, 0, `{"v":${extra}}`);
      return `{"data":[${rows.join(',')}],"nextCursor":null}`;
    };
    expect(mayAlterNumbers(page('1', 0))).toBe(false);
    for (let at = 0; at <= 40; at += 7) {
      for (const n of [
        '9007199254740993',
        '-12345678901234.56',
        '1e400',
        '2.5E-308',
        '0.10000000000000000001',
      ])
        expect(mayAlterNumbers(page(n, at)), `${n} at row ${at}`).toBe(true);
    }
  });
});
