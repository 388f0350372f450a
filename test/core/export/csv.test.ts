import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvHeader, quoteCsv } from '#core/export/csv';
import { guardCsv, parseCsv } from '#core/export/csv-guard';
import { csvBytes } from '#core/export/csv-part';
import type { Cell } from '#core/export/flatten';

describe('CSV cells', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\nbreak', '"line\nbreak"'],
    ['cr\r\nlf', '"cr\r\nlf"'],
    ['emoji 👩‍💻', 'emoji 👩‍💻'],
  ])('quotes %j only as RFC 4180 needs', (input, expected) => {
    expect(quoteCsv(input)).toBe(expected);
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+49 30 1234', "'+49 30 1234"],
    ['-abc', "'-abc"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['=A1,"B"', `"'=A1,""B"""`],
    ['a=b', 'a=b'],
  ])(
    'guards the text cell %j when asked (copies for people), and keeps it exact otherwise',
    (input, expected) => {
      expect(csvCell(input, true)).toBe(expected);
      expect(csvCell(input)).toBe(quoteCsv(input));
    },
  );

  it('guards header cells too when asked', () => {
    const column = (name: string) => ({
      name,
      type: 'string' as const,
      role: 'id' as const,
      source: { kind: 'field' as const, path: [name] },
      key: name,
    });
    const columns = [column('=HYPERLINK("x")'), column('likes')];
    expect(csvHeader(columns, true)).toBe(`"'=HYPERLINK(""x"")",likes\r\n`);
    expect(csvHeader(columns)).toBe(`"=HYPERLINK(""x"")",likes\r\n`);
  });

  it('never guards numbers, booleans or dates; writes long integers with every digit', () => {
    expect(csvCell(-5, true)).toBe('-5');
    expect(csvCell(12345678901234567891n)).toBe('12345678901234567891');
    expect(csvCell(-0.25)).toBe('-0.25');
    expect(csvCell(true)).toBe('true');
    expect(csvCell('2026-11-22')).toBe('2026-11-22');
  });

  it('writes null as an empty field', () => {
    expect(csvCell(null)).toBe('');
  });
});

describe('guarded copy of an exact CSV (emailed attachments)', () => {
  it('guards formula-like text cells and header cells, leaves numbers and quoting intact', () => {
    const exact = '=cmd(),name,likes\r\n@creator_8,"a,""b""",-5\r\n"line\nbreak",+1+2,-1.5e3\r\n';
    const guarded = new TextDecoder().decode(guardCsv(new TextEncoder().encode(exact)));
    expect(parseCsv(guarded)).toEqual([
      ["'=cmd()", 'name', 'likes'],
      ["'@creator_8", 'a,"b"', '-5'],
      ['line\nbreak', "'+1+2", '-1.5e3'],
    ]);
    expect(guarded.startsWith(`'=cmd(),name,likes\r\n'@creator_8,"a,""b""",-5\r\n`)).toBe(true);
  });
});

describe('CSV lines written as bytes', () => {
  const cell: fc.Arbitrary<Cell> = fc.oneof(
    fc.constant(null),
    fc.string({ unit: 'grapheme', maxLength: 8 }),
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.constantFrom('a,b', 'say "hi"', 'x\r\ny', '=1+1', '-5', '\ud800', 'é"', ''),
    fc.integer({ min: -2_000_000, max: 2_000_000 }),
    fc.constantFrom(0, -0, 2 ** 53 - 1, -(2 ** 53) + 1, 2 ** 53, 2 ** 60, 1e21, -1e-7, 1.5, 0.1),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    fc.boolean(),
  );

  it('are the bytes of csvCell for every cell, joined by commas and CRLF, UTF-8 encoded', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((width) =>
          fc.record({
            rows: fc.array(fc.array(cell, { minLength: width, maxLength: width }), { maxLength: 30 }),
            doubles: fc.array(fc.boolean(), { minLength: width, maxLength: width }),
            guard: fc.boolean(),
          }),
        ),
        ({ rows, doubles, guard }) => {
          const cols = doubles.map((_, c) => rows.map((r) => r[c] ?? null));
          const expected = rows
            .map((r) => `${r.map((v, c) => csvCell(v, guard, doubles[c] === true)).join(',')}\r\n`)
            .join('');
          const got = csvBytes(cols, rows.length, guard, doubles);
          expect(Buffer.from(got).toString('base64')).toBe(Buffer.from(expected, 'utf8').toString('base64'));
        },
      ),
      { numRuns: 300 },
    );
  });
});
