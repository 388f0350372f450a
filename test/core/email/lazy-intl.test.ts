/**
 * The email's number formats are made on first use (`lazyNumberFormat`, core/email/format.ts): the
 * process's first `Intl.NumberFormat` loads ICU's locale data, which every Lambda bundle importing the
 * email modules paid at cold start (docs/performance.md, "Lambda"), although only an email formats.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const Original = Intl.NumberFormat;
let made = 0;

afterEach(() => {
  Intl.NumberFormat = Original;
});

describe('number formats of the email', () => {
  it('makes no Intl.NumberFormat when its modules load, and one when a number is formatted', async () => {
    vi.resetModules();
    made = 0;
    // counts the formats made (a subclass: the modules call it with `new`)
    Intl.NumberFormat = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        made += 1;
      }
    } as typeof Intl.NumberFormat;
    const format = await import('#core/email/format');
    const units = await import('#core/email/units');
    expect(made).toBe(0);
    expect(format.formatNumber(1234.5, 'double')).toBe('1,234.50');
    expect(format.formatPercent(0.125)).toBe('+12.5%');
    expect(units.formatSeconds(75)).toBe('1 min 15 s');
    expect(made).toBe(2);
    expect(format.formatNumber(9876, 'int64')).toBe('9,876');
    expect(format.formatNumber(1.5, 'double')).toBe('1.50');
    expect(made).toBe(3);
  });
});
