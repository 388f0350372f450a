import { describe, expect, it } from 'vitest';
import { type WarningCode, warningFor } from '#core/export/warnings';

const CODES: WarningCode[] = [
  'TYPE_BREAK',
  'LONG_INTEGER',
  'NON_FINITE',
  'UNDERFLOW',
  'PRECISION',
  'OBJECT_AS_JSON',
  'NUMERIC_TEXT',
  'INVALID_TEXT',
];

describe('report warnings', () => {
  it('name the column and count, in the singular for one ("1 object", never "1 objects")', () => {
    for (const code of CODES) {
      const one = warningFor(code, 'breakdown', 1, 'breakdown__raw').message;
      const two = warningFor(code, 'breakdown', 2, 'breakdown__raw').message;
      expect(one).toMatch(/^Column breakdown received 1 [a-z]+[^s] /);
      expect(two).toMatch(/^Column breakdown received 2 [a-z]+s /);
      expect(one).not.toMatch(/they are/);
    }
  });
});
