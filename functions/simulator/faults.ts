/**
 * Switchable faults. Each data request gets a sequence number; whether it fails, and how, is drawn
 * from a hash of (seed, sequence), so the same test run sees the same faults. The token route is
 * never faulted.
 */
import { hash32, unit } from './prng';

export interface Faults {
  rate429: number;
  retryAfter: 'seconds' | 'http-date' | 'none';
  retryAfterSeconds: number;
  rate5xx: number;
  rateReset: number;
  slowMs: number;
  rateSlow: number;
  tokenTtlSeconds: number;
  limitCap: number;
  rateEmptyPage: number;
  repeatCursor: boolean;
}

export const DEFAULT_FAULTS: Faults = {
  rate429: 0,
  retryAfter: 'seconds',
  retryAfterSeconds: 1,
  rate5xx: 0,
  rateReset: 0,
  slowMs: 0,
  rateSlow: 0,
  tokenTtlSeconds: 12 * 3600,
  limitCap: 1000,
  rateEmptyPage: 0,
  repeatCursor: false,
};

export type Failure =
  | { kind: 'reset'; after: 'headers' | 'partial-body' }
  | { kind: '429'; retryAfter: string | undefined }
  | { kind: '5xx'; status: 500 | 502 | 503 | 504 };

const STATUSES = [500, 502, 503, 504] as const;

/** The failure (if any) for data request number `seq`. */
export function drawFailure(seed: number, seq: number, f: Faults, nowMs = Date.now()): Failure | undefined {
  if (unit(seed, seq, 7001) < f.rateReset) {
    return { kind: 'reset', after: hash32(seed, seq, 7002) % 2 === 0 ? 'headers' : 'partial-body' };
  }
  if (unit(seed, seq, 7003) < f.rate429) {
    const retryAfter =
      f.retryAfter === 'seconds'
        ? String(f.retryAfterSeconds)
        : f.retryAfter === 'http-date'
          ? new Date(nowMs + f.retryAfterSeconds * 1000).toUTCString()
          : undefined;
    return { kind: '429', retryAfter };
  }
  if (unit(seed, seq, 7004) < f.rate5xx) {
    return { kind: '5xx', status: STATUSES[hash32(seed, seq, 7005) % STATUSES.length] as 500 };
  }
  return undefined;
}

/** Extra delay for request `seq` (slow responses, to trigger client timeouts). */
export function drawSlow(seed: number, seq: number, f: Faults): number {
  return f.slowMs > 0 && unit(seed, seq, 7006) < f.rateSlow ? f.slowMs : 0;
}

/** Whether request `seq` on a list route answers an empty page that still has a next cursor. */
export function drawEmptyPage(seed: number, seq: number, f: Faults): boolean {
  return unit(seed, seq, 7007) < f.rateEmptyPage;
}
