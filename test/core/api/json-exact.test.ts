import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NumberText, parseJson, toJsonText } from '#core/api/json';

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
