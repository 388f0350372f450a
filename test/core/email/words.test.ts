/** Words people use: labels from API or snake_case names with overrides, units, dates, coverage lines. */
import { describe, expect, it } from 'vitest';
import { formatRange } from '#core/email/dates';
import { humanise, labeller } from '#core/email/labels';
import { cellText } from '#core/email/ranked';
import { coverageLine, reportTitle } from '#core/email/shape';
import { formatSeconds, unitOf, valueFormat } from '#core/email/units';

describe('labels', () => {
  it('derives the same words from API names and snake_case column names', () => {
    const pairs: [string, string, string][] = [
      ['paidImpressions', 'paid_impressions', 'Paid impressions'],
      ['avgWatchTime', 'avg_watch_time', 'Average watch time'],
      ['returnOnInvestment', 'return_on_investment', 'Return on investment'],
      ['engagementRate', 'engagement_rate', 'Engagement rate'],
      ['creatorName', 'creator_name', 'Creator name'],
      ['instanceIds', 'instance_ids', 'Instance IDs'],
    ];
    for (const [api, snake, words] of pairs) {
      expect(humanise(api)).toBe(words);
      expect(humanise(snake)).toBe(words);
    }
  });

  it('lets labels: override, report over global, matched under either spelling', () => {
    const label = labeller({ paidImpressions: 'Paid reach', likes: 'Hearts' }, { likes: 'Likes ❤' });
    expect(label('paidImpressions')).toBe('Paid reach');
    expect(label('paid_impressions')).toBe('Paid reach');
    expect(label('likes')).toBe('Likes ❤');
    expect(label('comments')).toBe('Comments');
  });
});

describe('units', () => {
  it('knows money, seconds and rates by name, and nothing else', () => {
    expect(['paidAdSpend', 'cost', 'revenue', 'affiliate_links_revenue', 'cpm'].map(unitOf)).toEqual(
      Array(5).fill('money'),
    );
    expect(['avgWatchTime', 'video_view_total_time'].map(unitOf)).toEqual(['seconds', 'seconds']);
    // a return on investment is a fraction like a rate: -0.06 is -6%
    expect(['engagementRate', 'ctr', 'returnOnInvestment', 'roi'].map(unitOf)).toEqual(
      Array(4).fill('percent'),
    );
    expect(['likes', 'shares', 'reach'].map(unitOf)).toEqual(Array(3).fill('number'));
  });

  it('formats money in the configured currency with Intl, and plain without one', () => {
    expect(valueFormat('paidAdSpend', 'double', 'EUR').format(6_870.99)).toBe('€6,870.99');
    // from 100,000 on whole units: the cents only make a card's number too wide (the files keep them)
    expect(valueFormat('paidAdSpend', 'double', 'EUR').format(3_006_870.99)).toBe('€3,006,871');
    expect(valueFormat('revenue', 'double', 'USD').signed(-567.5)).toBe('-$567.50');
    expect(valueFormat('revenue', 'double', 'JPY').format(1234.4)).toBe('¥1,234');
    expect(valueFormat('paidAdSpend', 'double').format(6_870.99)).toBe('6,870.99');
  });

  it('formats rates (fractions) as percentages and watch time in seconds, minutes, hours', () => {
    expect(valueFormat('engagementRate', 'double').format(0.0734)).toBe('7.34%');
    expect(formatSeconds(12.34)).toBe('12.3 s');
    expect(formatSeconds(125)).toBe('2 min 05 s');
    expect(formatSeconds(3_725_000)).toBe('1,034 h 43 min');
    expect(valueFormat('likes', 'int64').format(Number.NaN)).toBe('n/a');
  });

  it('shows JSON arrays as readable lists', () => {
    expect(cellText('["ins_0001","ins_0002"]')).toBe('ins_0001, ins_0002');
    expect(cellText('[]')).toBe('—');
    expect(cellText('[not json')).toBe('[not json');
    expect(cellText('[{"a":1}]')).toBe('[{"a":1}]');
  });
});

describe('dates', () => {
  it('writes windows the way people do', () => {
    expect(formatRange('2026-11-16', '2026-11-22')).toBe('16–22 Nov 2026');
    expect(formatRange('2026-11-09', '2026-11-15', false)).toBe('9–15 Nov');
    expect(formatRange('2026-10-26', '2026-11-01')).toBe('26 Oct – 1 Nov 2026');
    expect(formatRange('2025-12-29', '2026-01-04')).toBe('29 Dec 2025 – 4 Jan 2026');
    expect(formatRange('2026-11-22', '2026-11-22')).toBe('22 Nov 2026');
  });
});

describe('titles and coverage', () => {
  const filters = { instanceIds: [], campaignIds: [] };
  it('uses the configured title, else a title for the route', () => {
    expect(reportTitle({ title: 'Instagram campaigns', route: 'campaigns/performance' })).toBe(
      'Instagram campaigns',
    );
    expect(reportTitle({ route: 'campaigns/performance' })).toBe('Campaign performance');
  });

  it("says what a report covers in a reader's words: platform or content type, accounts, campaigns, date basis", () => {
    expect(
      coverageLine({
        route: 'campaigns/performance',
        filters: { ...filters, platform: 'instagram', dateBasis: 'post_date' },
      }),
    ).toBe('Instagram only · all accounts · by the date of the post');
    expect(
      coverageLine({
        route: 'posts/performance',
        filters: {
          instanceIds: ['a', 'b'],
          campaignIds: ['c'],
          contentType: 'instagram_reel',
          dateBasis: 'performance_date',
        },
      }),
    ).toBe('Instagram reels only · 2 selected accounts · 1 selected campaign · by the date of the activity');
    expect(coverageLine({ route: 'instances', filters })).toBe('All accounts');
    // the API's default date basis is said as what it is, without naming the API
    expect(coverageLine({ route: 'posts/performance', filters }, { one: 'brand', many: 'brands' })).toBe(
      'All platforms · all brands · by the date of the post',
    );
  });
});
