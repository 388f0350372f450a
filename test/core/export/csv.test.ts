import { describe, expect, it } from 'vitest';
import { csvCell, quoteCsv } from '#core/export/csv';

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
  ])('guards the text cell %j against formula injection', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it('never guards numbers, booleans or dates', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(-0.25)).toBe('-0.25');
    expect(csvCell(true)).toBe('true');
    expect(csvCell('2026-11-22')).toBe('2026-11-22');
  });

  it('writes null as an empty field', () => {
    expect(csvCell(null)).toBe('');
  });
});
