/** The third source of "did you mean": the valid set a 400 named, kept and read back by `validate`. */
import { describe, expect, it } from 'vitest';
import { dataRouteError } from '#core/api/errors';
import {
  assertNoUnlistedMetrics,
  KnownMetricsFileSchema,
  learnedNames,
  unlistedMetrics,
  validMetricsOf,
  validSetsOf,
  withValidSets,
} from '#core/config/known-metrics';
import {
  DOCUMENTED_METRICS,
  metricListsOf,
  metricSuggestions,
  suggestionMessage,
} from '#core/config/metric-names';
import { ExporterError } from '#core/errors';
import type { ManifestReport } from '#core/manifest';
import { failedEntry } from '#core/run/failed-entry';
import { valid, withReport } from './helpers';

const NOW = new Date('2026-11-23T08:00:00Z');
const ROUTE = 'posts/performance';

/** A 400 whose valid set sits in a field named like nothing we expect (`supported`). */
function badRequest(sent: string[], supported: string[]): ExporterError {
  return dataRouteError(
    {
      method: 'GET',
      path: `/v2/${ROUTE}`,
      status: 400,
      headers: {},
      body: JSON.stringify({ title: 'Invalid metrics', detail: `unknown: ${sent.join(', ')}`, supported }),
    },
    { metrics: sent },
  );
}

describe('a 400 valid set as a source of "did you mean"', () => {
  it('warns about a name close to one only the stored 400 set knows, and not without that set', () => {
    const config = valid(withReport({ route: ROUTE, metrics: ['likes', 'storyReplys'] }));
    const stat = new Set(DOCUMENTED_METRICS);
    // nothing the document (or the simulator) lists is close to it
    expect(metricSuggestions(config, stat)).toEqual([]);

    const err = badRequest(['likes', 'storyReplys'], ['likes', 'comments', 'storyReplies', 'storyExits']);
    const names = validMetricsOf(err);
    expect(names).toEqual(['likes', 'comments', 'storyReplies', 'storyExits']);
    // kept (as the CLI's file would hold it, through JSON) and read back by validate
    const stored = KnownMetricsFileSchema.parse(
      JSON.parse(JSON.stringify(withValidSets(null, [{ route: ROUTE, names: names ?? [] }], NOW))),
    );
    const learned = learnedNames(stored);
    const suggestions = metricSuggestions(config, [...stat, ...learned.keys()]);
    expect(suggestions).toEqual([
      { path: 'schedules[0].reports[0].metrics[1]', name: 'storyReplys', suggestion: 'storyReplies' },
    ]);
    const [s] = suggestions;
    if (!s) throw new Error('no suggestion');
    expect(suggestionMessage(s, learned.get(s.suggestion))).toContain(
      'did you mean "storyReplies", a name the API listed as valid on posts/performance in an earlier 400?',
    );
  });

  it('a name the 400 set lists is known: no warning for it, although no document lists it', () => {
    const config = valid(withReport({ route: ROUTE, metrics: ['storyExits'] }));
    const learned = learnedNames(null, [{ route: ROUTE, names: ['storyExits', 'storyReplies'] }]);
    expect(metricSuggestions(config, [...DOCUMENTED_METRICS, ...learned.keys()])).toEqual([]);
  });

  it('the failed manifest entry carries the set, and validSetsOf finds it there', () => {
    const names = validMetricsOf(badRequest(['x'], ['likes', 'storyReplies'])) ?? [];
    const failed: ManifestReport = failedEntry('posts', ROUTE, 'boom', { validMetrics: names });
    const ok = { ...failedEntry('other', 'platforms/performance', 'x'), status: 'succeeded' as const };
    expect(validSetsOf([{ reports: [failed, ok] }])).toEqual([
      { route: ROUTE, names: ['likes', 'storyReplies'] },
    ]);
  });

  it('merges per route (union, newest time), and bounds what server text may put in', () => {
    const first = withValidSets(null, [{ route: ROUTE, names: ['likes', 'a'] }], NOW);
    const later = new Date('2026-11-24T08:00:00Z');
    const merged = withValidSets(
      first,
      [
        { route: ROUTE, names: ['a', 'b'] },
        { route: 'campaigns/performance', names: ['spend'] },
      ],
      later,
    );
    expect(merged.routes[ROUTE]).toEqual({ seenAt: later.toISOString(), names: ['likes', 'a', 'b'] });
    expect(merged.routes['campaigns/performance']?.names).toEqual(['spend']);

    const hostile = new ExporterError('API_BAD_REQUEST', 'x', {
      details: {
        validMetrics: ['ok', 'bad\u0007bell', 'x'.repeat(101), '', 'ok', ...Array(500).fill('m'.repeat(90))],
      },
    });
    const bounded = validMetricsOf(hostile) ?? [];
    expect(bounded[0]).toBe('ok');
    expect(bounded).not.toContain('bad\u0007bell');
    expect(bounded.every((n) => n.length <= 100)).toBe(true);
    expect(bounded.join('').length).toBeLessThanOrEqual(4_000);
    expect(validMetricsOf(new ExporterError('API_FORBIDDEN', 'x'))).toBeUndefined();
    expect(validMetricsOf(new Error('plain'))).toBeUndefined();
  });
});

describe('metrics the API listed as not valid (validate --strict, cdk synth)', () => {
  const file = withValidSets(null, [{ route: ROUTE, names: ['likes', 'comments', 'shares'] }], NOW);
  const config = valid(withReport({ route: ROUTE, metrics: ['likes', 'coments', 'reach'] }));

  it('names each metric outside the listed set by path, with the route and when it was listed', () => {
    expect(unlistedMetrics(config, file)).toEqual([
      {
        path: 'schedules[0].reports[0].metrics[1]',
        name: 'coments',
        route: ROUTE,
        seenAt: NOW.toISOString(),
      },
      { path: 'schedules[0].reports[0].metrics[2]', name: 'reach', route: ROUTE, seenAt: NOW.toISOString() },
    ]);
  });

  it('judges no route the API never listed a set for, and nothing without a file', () => {
    expect(
      unlistedMetrics(valid(withReport({ route: 'platforms/performance', metrics: ['x'] })), file),
    ).toEqual([]);
    expect(unlistedMetrics(config, null)).toEqual([]);
  });

  it('the synth check refuses them with CONFIG_INVALID naming the override', () => {
    expect(() => assertNoUnlistedMetrics(config, file, 'r.yaml')).toThrow(
      /r\.yaml names 2 metric\(s\) the API listed as not valid:\n {2}schedules\[0\]\.reports\[0\]\.metrics\[1\]: metric "coments"[\s\S]*-c allowUnlistedMetrics=true/,
    );
    expect(() =>
      assertNoUnlistedMetrics(valid(withReport({ route: ROUTE, metrics: ['likes'] })), file),
    ).not.toThrow();
  });

  it('reads the metric lists of config data that does not validate, skipping what is malformed', () => {
    const lists = metricListsOf({
      schedules: [
        { cron: 'bad', reports: [{ route: ROUTE, metrics: ['likes', 3, 'coments'] }, 'junk'] },
        null,
      ],
    });
    expect(lists).toEqual({
      schedules: [
        { reports: [{ route: ROUTE, metrics: ['likes', 'coments'] }, { metrics: [] }] },
        { reports: [] },
      ],
    });
    expect(metricSuggestions(lists, DOCUMENTED_METRICS).map((s) => s.suggestion)).toEqual(['comments']);
    expect(unlistedMetrics(lists, file).map((u) => u.name)).toEqual(['coments']);
  });
});
