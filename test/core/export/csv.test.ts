import { describe, expect, it } from 'vitest';
import { csvCell, csvHeader, quoteCsv } from '#core/export/csv';
import { guardCsv, parseCsv } from '#core/export/csv-guard';

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
