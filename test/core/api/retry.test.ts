import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  RetryableFailure,
  withRetries,
} from '#core/api/retry';
import { recordingSleep } from './helpers';

const NOW = Date.parse('2026-11-23T08:00:00Z');
const fail = (retryAfterMs: number | null = null) =>
  new RetryableFailure(
    (attempts, outOfTime) => new Error(`gave up after ${attempts}${outOfTime ? ' (deadline)' : ''}`),
    503,
    'HTTP 503',
    retryAfterMs,
  );

describe('Retry-After', () => {
  it('parses delta-seconds', () => {
    expect(parseRetryAfter('7', NOW)).toBe(7000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
  });

  it('parses an HTTP date relative to now, and a past date as 0', () => {
    expect(parseRetryAfter('Mon, 23 Nov 2026 08:00:12 GMT', NOW)).toBe(12_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 07:00:00 GMT', NOW)).toBe(0);
  });

  it('ignores absent or unparseable values', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeNull();
    expect(parseRetryAfter('soon', NOW)).toBeNull();
    expect(parseRetryAfter('-5', NOW)).toBeNull();
  });
});

describe('backoff', () => {
  it('draws full jitter below min(cap, base × 2^n)', () => {
    const p = DEFAULT_RETRY_POLICY;
    expect(backoffDelay(0, p, () => 0.999)).toBe(499);
    expect(backoffDelay(3, p, () => 0.5)).toBe(2000);
    expect(backoffDelay(10, p, () => 0.999)).toBe(19_980);
    expect(backoffDelay(50, p, () => 0)).toBe(0);
  });
});

describe('withRetries', () => {
  it('retries a retryable failure and returns the later success', async () => {
    const { sleep, waits } = recordingSleep();
    let calls = 0;
    const result = await withRetries({ policy: DEFAULT_RETRY_POLICY, sleep, random: () => 0.5 }, async () => {
      calls++;
      if (calls < 3) throw fail();
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(waits).toEqual([250, 500]);
  });

  it('stops after maxRetries and raises the final error with the attempt count', async () => {
    const { sleep, waits } = recordingSleep();
    const policy = { ...DEFAULT_RETRY_POLICY, maxRetries: 2 };
    await expect(
      withRetries({ policy, sleep, random: () => 0 }, async () => {
        throw fail();
      }),
    ).rejects.toThrow('gave up after 3');
    expect(waits).toHaveLength(2);
  });

  it('waits what Retry-After says, capped', async () => {
    const { sleep, waits } = recordingSleep();
    let calls = 0;
    await withRetries({ policy: DEFAULT_RETRY_POLICY, sleep, random: () => 0 }, async () => {
      calls++;
      if (calls === 1) throw fail(3000);
      if (calls === 2) throw fail(10 * 60_000);
      return 'ok';
    });
    expect(waits).toEqual([3000, 60_000]);
  });

  it('never sleeps past the deadline: gives up at once when the wait would not fit', async () => {
    const { sleep, waits } = recordingSleep();
    await expect(
      withRetries(
        { policy: DEFAULT_RETRY_POLICY, sleep, random: () => 0, deadlineMs: () => 2000 },
        async () => {
          throw fail(5000);
        },
      ),
    ).rejects.toThrow('gave up after 1 (deadline)');
    expect(waits).toEqual([]);
  });

  it('passes other errors through without retrying', async () => {
    const { sleep, waits } = recordingSleep();
    await expect(
      withRetries({ policy: DEFAULT_RETRY_POLICY, sleep, random: () => 0 }, async () => {
        throw new TypeError('bug');
      }),
    ).rejects.toThrow(TypeError);
    expect(waits).toEqual([]);
  });
});
