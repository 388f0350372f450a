/** What the CLI keys its cache of validated configs to (functions/cli/config-cache.ts). */
import { describe, expect, it } from 'vitest';
import { validatorId } from '#cli/config-cache';

describe('validatorId (the CLI keys entries to its build, Node and ICU)', () => {
  it('differs when the build, the Node, its ICU or its time zone data differ', () => {
    const base = validatorId('build-a', { node: '20.20.2', icu: '78.2', tz: '2025c' });
    expect(validatorId('build-a', { node: '20.20.2', icu: '78.2', tz: '2025c' })).toBe(base);
    for (const other of [
      validatorId('build-b', { node: '20.20.2', icu: '78.2', tz: '2025c' }),
      validatorId('build-a', { node: '22.23.3', icu: '78.2', tz: '2025c' }),
      validatorId('build-a', { node: '20.20.2', icu: '72.1', tz: '2025c' }),
      validatorId('build-a', { node: '20.20.2', icu: '78.2', tz: '2025b' }),
    ])
      expect(other).not.toBe(base);
  });
});
