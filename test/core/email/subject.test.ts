import { describe, expect, it } from 'vitest';
import { subjectFor } from '#core/email/subject';
import { creatorsReport, manifest, postsReport } from './fixtures';

describe('subjectFor', () => {
  it('names the schedule and the window for a successful run', () => {
    expect(subjectFor('Weekly campaign performance', manifest([creatorsReport()]))).toBe(
      'Weekly campaign performance: 2026-11-16 – 2026-11-22',
    );
  });

  it('prefixes PARTIAL: when some reports failed', () => {
    expect(subjectFor('Weekly', manifest([creatorsReport(), postsReport()]))).toBe(
      'PARTIAL: Weekly: 2026-11-16 – 2026-11-22',
    );
  });

  it('prefixes FAILED: when every report failed', () => {
    expect(subjectFor('Weekly', manifest([postsReport()]))).toBe('FAILED: Weekly: 2026-11-16 – 2026-11-22');
  });

  it('cannot carry a line break into the header, whatever the description holds', () => {
    const subject = subjectFor(
      'Weekly\r\nBcc: victim@example.com\nX-Evil: 1\u2028',
      manifest([creatorsReport()]),
    );
    expect(subject).not.toMatch(/[\r\n\u2028\u2029]/);
    expect(subject).toBe('Weekly Bcc: victim@example.com X-Evil: 1: 2026-11-16 – 2026-11-22');
  });
});
