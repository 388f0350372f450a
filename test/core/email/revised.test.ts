import { fc, test } from '@fast-check/vitest';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { ScheduleConfig } from '#core/config/schema';
import { describeRevision, revisedHtml, revisedLines, revisedText, windowLabel } from '#core/email/revised';
import type { Manifest } from '#core/manifest';

const WEEK1 = { start: '2026-11-09', end: '2026-11-15', timezone: 'Europe/Berlin' };

function schedule(
  threshold: number,
  reports = ['posts'],
): Pick<ScheduleConfig, 'reports' | 'revisedThresholdPercent'> {
  return {
    revisedThresholdPercent: threshold,
    reports: reports.map((id) => ({
      id,
      route: 'posts/performance',
      metrics: ['likes', 'shares', 'views'],
      filters: { instanceIds: [], campaignIds: [] },
      params: {},
      columns: {},
      labels: {},
      summary: { kpis: ['likes', 'shares'], topN: 10 },
    })),
  };
}

const manifest = (likes: [number, number], shares: [number, number]): Pick<Manifest, 'restated'> => ({
  restated: [
    {
      window: WEEK1,
      manifestKey: 'k',
      reports: [
        {
          reportId: 'posts',
          status: 'succeeded',
          rows: { before: 100, after: 100 },
          totals: {
            likes: { before: likes[0], after: likes[1] },
            shares: { before: shares[0], after: shares[1] },
            views: { before: 1, after: 1000 }, // not a KPI: never listed
          },
          error: null,
        },
      ],
    },
  ],
});

describe('the Revised section', () => {
  it('names the window, the KPI, old and new totals and the change', () => {
    const lines = revisedLines(manifest([1_234_567, 1_301_220], [100, 100]), schedule(0.5));
    expect(lines.map(describeRevision)).toEqual([
      'Week of 9 Nov: likes revised from 1,234,567 to 1,301,220, +5.4 %',
    ]);
  });

  it('lists only totals that moved by more than the threshold (default 0.5 %)', () => {
    // +0.5 % exactly is not more than 0.5 %; -0.6 % is
    const lines = revisedLines(manifest([1000, 1005], [1000, 994]), schedule(0.5));
    expect(lines.map(describeRevision)).toEqual(['Week of 9 Nov: shares revised from 1,000 to 994, -0.6 %']);
    expect(revisedLines(manifest([1000, 1005], [1000, 994]), schedule(1))).toEqual([]);
    expect(revisedLines(manifest([1000, 1005], [1000, 994]), schedule(0))).toHaveLength(2);
  });

  it('names the report by its title when the schedule has several, and a failed re-export', () => {
    const m: Pick<Manifest, 'restated'> = {
      restated: [
        {
          window: WEEK1,
          manifestKey: 'k',
          reports: [
            {
              reportId: 'posts',
              status: 'failed',
              rows: { before: 1, after: null },
              totals: {},
              error: 'HTTP 500',
            },
          ],
        },
      ],
    };
    expect(revisedLines(m, schedule(0.5, ['posts', 'creators'])).map(describeRevision)).toEqual([
      'Week of 9 Nov · Post performance: could not be re-exported, the earlier export stands (HTTP 500)',
    ]);
  });

  it('says a window that was never exported is missing, never that an earlier export "stands"', () => {
    const m: Pick<Manifest, 'restated'> = {
      restated: [
        {
          window: WEEK1,
          manifestKey: 'k',
          reports: [
            {
              reportId: 'posts',
              status: 'failed',
              rows: { before: null, after: null },
              totals: {},
              error: 'HTTP 500',
            },
          ],
        },
      ],
    };
    const [line] = revisedLines(m, schedule(0.5)).map(describeRevision);
    expect(line).toBe(
      'Week of 9 Nov: still missing — it has never been exported, and this run could not export it either (HTTP 500)',
    );
    expect(line).not.toContain('stands');
  });

  it('labels days, weeks, months and other ranges', () => {
    const w = (start: string, end: string) => windowLabel({ start, end, timezone: 'UTC' });
    expect(w('2026-11-09', '2026-11-09')).toBe('9 Nov');
    expect(w('2026-11-09', '2026-11-15')).toBe('Week of 9 Nov');
    expect(w('2026-02-01', '2026-02-28')).toBe('February 2026');
    expect(w('2026-11-01', '2026-11-20')).toBe('1 Nov – 20 Nov');
  });

  // The labels were luxon's `toFormat` in en-US before the email's own calendar-date helpers wrote
  // them (luxon stays the oracle): any window of days from 1900 to 2200, up to 70 days long, and
  // every whole month give or take a day at either end, is labelled the same.
  const day = fc.date({
    min: new Date(Date.UTC(1900, 0, 1)),
    max: new Date(Date.UTC(2200, 0, 1)),
    noInvalidDate: true,
  });
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  const windows = fc.oneof(
    fc.tuple(day, fc.nat(70)).map(([d, n]) => [iso(d), iso(new Date(d.getTime() + n * 86_400_000))] as const),
    fc.tuple(day, fc.integer({ min: -1, max: 1 }), fc.integer({ min: -1, max: 1 })).map(([d, a, b]) => {
      const [y, m] = [d.getUTCFullYear(), d.getUTCMonth()];
      return [iso(new Date(Date.UTC(y, m, 1 + a))), iso(new Date(Date.UTC(y, m + 1, b)))] as const;
    }),
  );
  function luxonLabel(startIso: string, endIso: string): string {
    const start = DateTime.fromISO(startIso, { locale: 'en-US' });
    const end = DateTime.fromISO(endIso, { locale: 'en-US' });
    if (startIso === endIso) return start.toFormat('d MMM');
    if (end.diff(start, 'days').days === 6) return `Week of ${start.toFormat('d MMM')}`;
    if (start.day === 1 && end.equals(start.endOf('month').startOf('day')))
      return start.toFormat('LLLL yyyy');
    return `${start.toFormat('d MMM')} – ${end.toFormat('d MMM')}`;
  }
  test.prop([windows], { numRuns: 2000 })('labels any window as luxon did in English', ([start, end]) => {
    expect(windowLabel({ start, end, timezone: 'Europe/Berlin' })).toBe(luxonLabel(start, end));
  });

  it('renders nothing without revisions, and escapes what it renders', () => {
    expect(revisedText([])).toEqual([]);
    expect(revisedHtml([])).toBe('');
    const html = revisedHtml([{ kind: 'failed', label: '9 Nov', error: '<script>x</script>' }]);
    expect(html).toContain('data-role="revised"');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });
});
