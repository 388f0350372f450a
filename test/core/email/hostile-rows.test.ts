/** Top rows whose field names are Object's own members must not reach behaviour (or crash the summary). */
import { describe, expect, it } from 'vitest';
import { renderSummary } from '#core/email/summary';
import { topColumns, trimTopRows } from '#core/email/top-columns';
import type { SummaryRow } from '#core/export/top';
import { config, summaryInput, TOP_CREATORS } from './fixtures';

/** The fixture rows, some with a `constructor`, `__proto__` or `toString` field (as JSON.parse makes them). */
function hostileRows(): SummaryRow[] {
  // without name/platform, "constructor" ranks among the two identifying columns shown
  return TOP_CREATORS.map(({ name: _n, platform: _p, ...row }, i) =>
    i === 0
      ? ({ ...row, ...JSON.parse('{"constructor": "ctor-field", "__proto__": "proto-field"}') } as SummaryRow)
      : i === 1
        ? { ...row, toString: 'ts-field' }
        : row,
  );
}

describe('hostile field names in top rows', () => {
  it('the summary is still written when some top rows carry a constructor field', async () => {
    const [message] = await renderSummary(summaryInput({ top: { creators: hostileRows() } }));
    expect(message?.html).toContain('data-role="top"');
    expect(message?.html).toContain('ctor-field');
    expect(message?.text).toMatch(/Top 3 (of [\d,]+ )?creators by likes/);
    // a row without the field shows an empty cell, never Object's constructor
    expect(message?.html).not.toContain('function Object');
    expect(message?.text).not.toContain('[native code]');
  });

  it('the same choice of columns before and after trimming, and "__proto__" stays a plain key', () => {
    const report = config().schedule.reports.find((r) => r.id === 'creators');
    if (!report) throw new Error('fixture has no creators report');
    const rows = hostileRows();
    const trimmed = trimTopRows(rows, report);
    const before = topColumns(
      rows.flatMap((r) => Object.keys(r)),
      report,
    );
    const after = topColumns(
      trimmed.flatMap((r) => Object.keys(r)),
      report,
    );
    expect(after).toEqual(before);
    for (const row of trimmed) expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a report id named like an Object member finds no top rows it does not have', async () => {
    const [message] = await renderSummary(summaryInput({ top: {} }));
    expect(message?.html).toBeDefined();
  });
});
