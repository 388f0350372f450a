import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  formatBytes,
  formatCell,
  formatNumber,
  formatPercent,
  formatSigned,
  headerSafe,
  truncate,
} from '#core/email/format';

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters, including an already-escaped entity', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'q' &amp;`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; &amp;amp;',
    );
  });

  it('leaves emoji and other text untouched', () => {
    expect(escapeHtml('Grüße 🚀 — ok')).toBe('Grüße 🚀 — ok');
  });
});

describe('headerSafe', () => {
  it('turns CR, LF, tabs and Unicode line separators into single spaces', () => {
    expect(headerSafe('Weekly\r\nBcc: evil@example.com\u2028x\u0085y\tz')).toBe(
      'Weekly Bcc: evil@example.com x y z',
    );
  });

  it('caps the length and marks the cut', () => {
    const out = headerSafe('a'.repeat(500), 20);
    expect(Array.from(out)).toHaveLength(20);
    expect(out.endsWith('…')).toBe(true);
  });
});

describe('truncate', () => {
  it('never splits an emoji (surrogate pair)', () => {
    const out = truncate('🚀🚀🚀🚀', 3);
    expect(out).toBe('🚀🚀…');
  });

  it('keeps short text as is', () => {
    expect(truncate('short', 10)).toBe('short');
  });
});

describe('number formatting', () => {
  it('groups integers with thousands separators', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(1234567, 'int64')).toBe('1,234,567');
  });

  it('shows doubles (money, rates) with two decimals', () => {
    expect(formatNumber(10432.5, 'double')).toBe('10,432.50');
    expect(formatNumber(0.0734)).toBe('0.07');
  });

  it('never prints NaN or Infinity', () => {
    expect(formatNumber(Number.NaN)).toBe('n/a');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('n/a');
    expect(formatPercent(Number.POSITIVE_INFINITY)).toBe('n/a');
  });

  it('signs changes and percentages', () => {
    expect(formatSigned(1500)).toBe('+1,500');
    expect(formatSigned(-1500)).toBe('-1,500');
    expect(formatSigned(0)).toBe('0');
    expect(formatPercent(0.125)).toBe('+12.5%');
    expect(formatPercent(-0.05)).toBe('-5.0%');
  });

  it('formats cells by type: null as a dash, booleans as yes/no, strings on one line', () => {
    expect(formatCell(null, 'int64')).toBe('—');
    expect(formatCell(true, 'boolean')).toBe('yes');
    expect(formatCell('a\nb', 'string')).toBe('a b');
    expect(formatCell(3, 'double')).toBe('3.00');
  });

  it('formats byte sizes for people', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(4300)).toBe('4.2 KiB');
    expect(formatBytes(12.3 * 1024 * 1024)).toBe('12.3 MiB');
  });
});
