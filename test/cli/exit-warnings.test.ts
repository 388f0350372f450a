import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT_WARNINGS, reportManifests } from '#cli/commands/run';
import type { Manifest, ManifestReport } from '#core/manifest';
import type { Sink } from '#core/sink';

const report = (over: Partial<ManifestReport>): ManifestReport => ({
  reportId: 'posts',
  route: 'posts/performance',
  status: 'succeeded',
  rowCount: 10,
  pages: 1,
  columns: [],
  totals: {},
  error: null,
  files: [],
  ...over,
});
const manifest = (reports: ManifestReport[], status: Manifest['status'] = 'succeeded'): Manifest =>
  ({
    scheduleId: 's',
    window: { start: '2026-11-01', end: '2026-11-01', timezone: 'UTC' },
    status,
    reports,
  }) as Manifest;
const sink = { locate: (k: string) => k } as unknown as Sink;

afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

describe('run result lines and exit code', () => {
  it('exits 3 and prints each warning when every report succeeded but one carries warnings', () => {
    const out = vi.spyOn(process.stdout, 'write').mockReturnValue(true);
    const warning = {
      code: 'METRIC_MISSING',
      column: 'comments',
      message: 'metric "comments" was requested…',
    };
    reportManifests([manifest([report({ warnings: [warning] })])], sink, '');
    expect(process.exitCode).toBe(EXIT_WARNINGS);
    expect(EXIT_WARNINGS).toBe(3);
    const text = out.mock.calls.map((c) => String(c[0])).join('');
    expect(text).toContain('posts                10 rows, 0 files — 1 WARNING(S)');
    expect(text).toContain('    WARNING METRIC_MISSING: metric "comments" was requested…');
  });

  it('exits 1 when a report failed, warnings or not, and leaves 0 for a plain success', () => {
    vi.spyOn(process.stdout, 'write').mockReturnValue(true);
    const failed = report({ reportId: 'x', status: 'failed', error: 'boom' });
    const warned = report({ warnings: [{ code: 'ROWS_REPEATED', message: 'm', count: 2 }] });
    reportManifests([manifest([warned, failed], 'partial')], sink, '');
    expect(process.exitCode).toBe(1);
    process.exitCode = undefined;
    reportManifests([manifest([report({})])], sink, '');
    expect(process.exitCode).toBeUndefined();
  });
});
