import { describe, expect, it } from 'vitest';
import {
  closestMetric,
  DOCUMENTED_METRICS,
  editDistance,
  metricSuggestions,
} from '#core/config/metric-names';
import { valid, withReport } from './helpers';

const known = new Set(DOCUMENTED_METRICS);

describe('closestMetric', () => {
  it.each([
    ['coments', 'comments'],
    ['Likes', 'likes'],
    ['shraes', 'shares'],
    ['paidImpresions', 'paidImpressions'],
    ['avgWatchtime', 'avgWatchTime'],
  ])('suggests a known name for the typo %s', (typo, want) => {
    expect(closestMetric(typo, known)).toBe(want);
  });

  it.each(['likes', 'views', 'trackingLinksClicks', 'navigationTapForward', 'engagementRate'])(
    'stays quiet for %s (known, or not close to a known name: the API may know it)',
    (name) => {
      expect(closestMetric(name, known)).toBeNull();
    },
  );

  it('counts a transposition as one edit', () => {
    expect(editDistance('shraes', 'shares')).toBe(1);
    expect(editDistance('likes', 'comments', 2)).toBe(3);
  });
});

describe('metricSuggestions', () => {
  it('names the path of each probable typo in the config', () => {
    const config = valid(withReport({ route: 'posts/performance', metrics: ['likes', 'coments'] }));
    expect(metricSuggestions(config, known)).toEqual([
      { path: 'schedules[0].reports[0].metrics[1]', name: 'coments', suggestion: 'comments' },
    ]);
  });
});
