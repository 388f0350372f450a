import { describe, expect, it } from 'vitest';
import { exportEnv, finalizeEnv } from '#handlers/env';

describe('handler environments', () => {
  it('reads what the stack sets and fills the defaults', () => {
    expect(exportEnv({ BUCKET_NAME: 'b', MAP_CONCURRENCY: '4' })).toEqual({
      BUCKET_NAME: 'b',
      MAP_CONCURRENCY: 4,
    });
    expect(exportEnv({ BUCKET_NAME: 'b' }).MAP_CONCURRENCY).toBe(1);
    expect(exportEnv({ BUCKET_NAME: 'b', SAFETY_MARGIN_MS: '250' }).SAFETY_MARGIN_MS).toBe(250);
    expect(finalizeEnv({ BUCKET_NAME: 'b' })).toEqual({ BUCKET_NAME: 'b', EVENT_BUS_NAME: 'default' });
  });

  it('names the variable that is missing or malformed instead of going on with NaN', () => {
    expect(() => exportEnv({})).toThrow(/Export Lambda's environment.*BUCKET_NAME/);
    expect(() => exportEnv({ BUCKET_NAME: 'b', MAP_CONCURRENCY: 'four' })).toThrow(
      /MAP_CONCURRENCY: a whole number/,
    );
    expect(() => exportEnv({ BUCKET_NAME: 'b', MAP_CONCURRENCY: '0' })).toThrow(/MAP_CONCURRENCY/);
    expect(() => finalizeEnv({ BUCKET_NAME: '' })).toThrow(/Finalize Lambda's environment.*BUCKET_NAME/);
  });
});
