import { describe, expect, it } from 'vitest';
import { arrow, delta, kpisFor } from '#core/email/deltas';
import { valueFormat } from '#core/email/units';
import { describeDelta } from '#core/email/wording';

const COUNT = valueFormat('likes', 'int64');
const EUR = valueFormat('affiliateLinksRevenue', 'double', 'EUR');

import { creatorsReport, manifest } from './fixtures';

describe('delta', () => {
  it('says "no previous run" when the schedule has none', () => {
    const d = delta(100, undefined, false);
    expect(d).toEqual({ kind: 'no-previous-run' });
    expect(describeDelta(d, COUNT)).toBe('no earlier run to compare with');
    expect(arrow(d)).toBe('');
  });

  it('computes absolute and relative change with an up arrow', () => {
    const d = delta(1_234_567, 1_100_000, true);
    expect(d).toEqual({ kind: 'change', change: 134_567, ratio: 134_567 / 1_100_000 });
    expect(describeDelta(d, COUNT)).toBe('▲ +134,567 (+12.2%)');
    expect(describeDelta(d, COUNT, '9–15 Nov')).toBe('▲ +134,567 (+12.2%) vs 9–15 Nov');
  });

  it('shows a negative change with a down arrow', () => {
    const d = delta(80, 100, true);
    expect(arrow(d)).toBe('▼');
    expect(describeDelta(d, COUNT)).toBe('▼ -20 (-20.0%)');
  });

  it('says "new" instead of dividing by a previous zero', () => {
    const d = delta(890, 0, true);
    expect(d).toEqual({ kind: 'new', change: 890 });
    expect(describeDelta(d, COUNT)).toBe('▲ +890 (new; was 0)');
    expect(describeDelta(d, COUNT)).not.toMatch(/Infinity|NaN/);
  });

  it('says "no change" when both runs are zero', () => {
    const d = delta(0, 0, true);
    expect(arrow(d)).toBe('=');
    expect(describeDelta(d, COUNT)).toBe('= no change');
  });

  it('says n/a when the previous run has no value for the KPI', () => {
    const d = delta(5, undefined, true);
    expect(d).toEqual({ kind: 'n/a' });
    expect(describeDelta(d, COUNT)).toMatch(/^n\/a/);
  });

  it('keeps money deltas at two decimals', () => {
    expect(describeDelta(delta(10_432.5, 11_000, true), EUR)).toBe('▼ -€567.50 (-5.2%)');
    expect(describeDelta(delta(10_432.5, 11_000, true), valueFormat('cost', 'double'))).toBe(
      '▼ -567.50 (-5.2%)',
    );
  });
});

describe('kpisFor', () => {
  it('never sums a non-additive KPI: one absent from totals is shown per row', () => {
    const kpis = kpisFor(['likes', 'engagementRate'], creatorsReport(), null);
    expect(kpis).toEqual([
      { metric: 'likes', kind: 'total', value: 1_234_567, type: 'int64', delta: { kind: 'no-previous-run' } },
      { metric: 'engagementRate', kind: 'per-row' },
    ]);
  });

  it('compares against the same report id of the previous manifest, not another report', () => {
    const previous = manifest([creatorsReport({ reportId: 'other', totals: { likes: 1 } })]);
    const [likes] = kpisFor(['likes'], creatorsReport(), previous);
    expect(likes).toMatchObject({ kind: 'total', delta: { kind: 'n/a' } });
  });

  it('ignores a previous report that failed (its totals are not comparable)', () => {
    const previous = manifest([creatorsReport({ status: 'failed', totals: { likes: 5 } })]);
    const [likes] = kpisFor(['likes'], creatorsReport(), previous);
    expect(likes).toMatchObject({ delta: { kind: 'n/a' } });
  });

  it('types a money total as double from the manifest columns', () => {
    const [revenue] = kpisFor(['affiliateLinksRevenue'], creatorsReport(), null);
    expect(revenue).toMatchObject({ kind: 'total', type: 'double', value: 10_432.5 });
  });
});
