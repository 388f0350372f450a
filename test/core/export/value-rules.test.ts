/** The value rules of docs/export.md ("Numbers", "Text"), one function at a time (issue 22). */
import { describe, expect, it } from 'vitest';
import { csvCell } from '#core/export/csv';
import { breakOf, cellText, fitted, isNumericText, numberText } from '#core/export/values';
import { validText } from '#core/unicode';

describe('numbers', () => {
  it('writes a numeric string in a number column as the number it spells (NUMERIC_TEXT), not as a break', () => {
    expect(breakOf('int64', '12')).toBeNull();
    expect(isNumericText('int64', '12')).toBe(true);
    expect(fitted('int64', '12')).toBe(12);
    expect(fitted('int64', '12345678901234567891')).toBeNull(); // beyond INT64
    expect(breakOf('int64', '12345678901234567891')).toBe('LONG_INTEGER');
    expect(fitted('int64', '9007199254740993')).toBe(9007199254740993n);
    expect(fitted('double', '12.5')).toBe(12.5);
    expect(breakOf('int64', '12.5')).toBe('TYPE_BREAK');
    expect(breakOf('double', 'twelve')).toBe('TYPE_BREAK');
    expect(breakOf('double', '012')).toBe('TYPE_BREAK'); // not a JSON number: text, not a number
    expect(isNumericText('string', '12')).toBe(false);
  });

  it('tells overflow, underflow and lost precision apart (each kept as text in the raw companion)', () => {
    expect(breakOf('double', '1e400')).toBe('NON_FINITE');
    expect(breakOf('double', '-1e-400')).toBe('UNDERFLOW');
    expect(breakOf('double', '0.10000000000000000001')).toBe('PRECISION');
    expect(fitted('double', '1e-400')).toBeNull();
    expect(cellText('1e-400')).toBe('1e-400');
  });

  it('keeps the sign of -0 in a double or string column and makes it 0 in an int64 column', () => {
    expect(Object.is(fitted('double', -0), -0)).toBe(true);
    expect(fitted('string', -0)).toBe('-0');
    expect(Object.is(fitted('int64', -0), 0)).toBe(true);
  });

  it('writes a double with a decimal point in CSV (12.0), integers and exponents as they are', () => {
    expect(numberText(12, true)).toBe('12.0');
    expect(numberText(-0, true)).toBe('-0.0');
    expect(numberText(12.5, true)).toBe('12.5');
    expect(numberText(1e21, true)).toBe('1e+21');
    expect(numberText(12, false)).toBe('12');
    expect(numberText(12345678901234567891n, false)).toBe('12345678901234567891');
    expect(csvCell(3, false, true)).toBe('3.0');
    expect(csvCell(3, false, false)).toBe('3');
  });
});

describe('text', () => {
  it('replaces each lone surrogate by U+FFFD and leaves valid text (astral characters too) alone', () => {
    expect(validText('a\ud800b')).toBe('a\ufffdb');
    expect(validText('\udc00')).toBe('\ufffd');
    expect(validText('emoji 👩‍💻')).toBe('emoji 👩‍💻');
    expect(fitted('string', 'x\ud83d')).toBe('x\ufffd');
  });
});
