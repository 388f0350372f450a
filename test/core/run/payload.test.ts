import { describe, expect, it } from 'vitest';
import { ExporterError } from '#core/errors';
import type { ManifestReport } from '#core/manifest';
import {
  boundedOutcome,
  outcomeBudget,
  payloadBytes,
  SAFE_PAYLOAD_BYTES,
  shortReason,
} from '#core/run/payload';
import type { ReportOutcome } from '#core/run/types';

function outcome(files: number, topRows: number): ReportOutcome {
  const manifest: ManifestReport = {
    reportId: 'posts',
    route: 'posts/performance',
    status: 'succeeded',
    rowCount: 10,
    pages: 1,
    columns: [{ name: 'postId', type: 'string' }],
    totals: {},
    error: null,
    files: Array.from({ length: files }, (_, i) => ({
      format: 'csv' as const,
      key: `exports/daily/posts/csv/dt=2026-11-22/part-${String(i).padStart(5, '0')}.csv`,
      bytes: 1,
      rows: 1,
      sha256: '0'.repeat(64),
    })),
  };
  return {
    manifest,
    top: Array.from({ length: topRows }, (_, i) => ({ postId: `p${i}`, caption: 'c'.repeat(40), likes: i })),
  };
}

describe('a report result within its share of the payload', () => {
  it('splits the safe size, less the plan, evenly between the reports', () => {
    expect(outcomeBudget(24 * 1024, 10)).toBe(Math.floor((SAFE_PAYLOAD_BYTES - 24 * 1024) / 10));
  });

  it('passes a result that fits unchanged', () => {
    const small = outcome(2, 10);
    expect(boundedOutcome(small, 64 * 1024)).toBe(small);
  });

  it('leaves the top rows out first, with a warning in the manifest that says what to change', () => {
    const big = outcome(2, 100);
    const budget = payloadBytes(outcome(2, 0)) + 1000;
    const bounded = boundedOutcome(big, budget);
    expect(bounded.top).toEqual([]);
    expect(bounded.manifest.files).toHaveLength(2);
    expect(bounded.manifest.warnings).toEqual([
      expect.objectContaining({
        code: 'TOP_ROWS_OMITTED',
        count: 100,
        message: expect.stringContaining('lower summary.topN'),
      }),
    ]);
    expect(payloadBytes(bounded)).toBeLessThanOrEqual(budget);
  });

  it('fails with STATE_TOO_LARGE, naming files and columns, when even the manifest entry does not fit', () => {
    let err: unknown;
    try {
      boundedOutcome(outcome(500, 0), 10_000);
    } catch (e: unknown) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExporterError);
    expect((err as ExporterError).code).toBe('STATE_TOO_LARGE');
    expect((err as ExporterError).message).toMatch(
      /^the report's result \(\d+ KB: 500 files, 1 columns\) does not fit the 10 KB/,
    );
  });

  it('cuts a long failure reason (server text) to a bounded length', () => {
    const reason = shortReason(`GET /v2/x answered 400: valid metrics ${'m,'.repeat(5000)}`);
    expect(Array.from(reason).length).toBe(1500);
    expect(reason.endsWith('…')).toBe(true);
  });
});
