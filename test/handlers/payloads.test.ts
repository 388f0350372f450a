/** The Map's caught errors → plain reasons; Finalize's input accepts outcomes and caught failures. */
import { describe, expect, it } from 'vitest';
import { FinalizeInputSchema, MapResultSchema, reasonOf } from '#core/run/map-results';

describe('reasonOf', () => {
  it('keeps the error name and the Lambda errorMessage, never the stack trace', () => {
    const cause = JSON.stringify({
      errorType: 'Error',
      errorMessage: 'writing s3://b/k failed: AccessDenied',
      trace: ['Error: at secret-looking/stack.js:1'],
    });
    const reason = reasonOf(JSON.stringify({ Error: 'Error', Cause: cause }));
    expect(reason).toBe('Error: writing s3://b/k failed: AccessDenied');
    expect(reason).not.toContain('stack.js');
  });

  it('falls back to the error name when the Cause is not JSON or absent', () => {
    expect(reasonOf(JSON.stringify({ Error: 'States.Timeout', Cause: 'timed out' }))).toBe('States.Timeout');
    expect(reasonOf(JSON.stringify({ Error: 'Lambda.Unknown' }))).toBe('Lambda.Unknown');
    expect(reasonOf('not json')).toBe('the export step failed');
  });

  it('caps a long message at 500 characters on one line', () => {
    const cause = JSON.stringify({ errorMessage: `a\n${'x'.repeat(2000)}` });
    const reason = reasonOf(JSON.stringify({ Error: 'E', Cause: cause }));
    expect(reason.length).toBe(500);
    expect(reason).not.toContain('\n');
  });
});

describe('FinalizeInputSchema', () => {
  const plan = {
    runId: 'r',
    scheduleId: 's',
    scheduledTime: '2026-11-23T07:00:00Z',
    window: { start: '2026-11-16', end: '2026-11-22', timezone: 'UTC' },
    lookback: [],
    startedAt: '2026-11-23T07:00:01Z',
    items: { bucket: 'b', key: 'exports/_workflow/tasks/r.json' },
    taskCount: 4,
  };

  it('takes the plan with its items in S3 and where the Map wrote its results, or the Map’s error', () => {
    const results = { MapRunArn: 'arn', ResultWriterDetails: { Bucket: 'b', Key: 'k/manifest.json' } };
    expect(FinalizeInputSchema.safeParse({ plan, results }).success).toBe(true);
    expect(FinalizeInputSchema.safeParse({ plan, results: { error: '{}' } }).success).toBe(true);
    expect(FinalizeInputSchema.safeParse({ plan: { ...plan, items: undefined }, results }).success).toBe(
      false,
    );
    expect(FinalizeInputSchema.safeParse({ plan, results: [] }).success).toBe(false);
  });

  it('rejects a Map result that is neither an outcome nor a caught failure', () => {
    expect(MapResultSchema.safeParse({ failed: { reportId: 'x', error: '{}' } }).success).toBe(true);
    expect(MapResultSchema.safeParse({ status: 'continue' }).success).toBe(false);
  });
});
