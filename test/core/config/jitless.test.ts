/**
 * A config is validated without zod compiling code (`jitless`, functions/core/config/load.ts): zod
 * would otherwise build a fast path with `new Function` for every object schema on its first parse,
 * ~8–10 ms of every CLI start for a value parsed once per process. Its own file: a schema compiles its
 * fast path once, so an earlier parse in the same module graph would hide a regression.
 */
import { describe, expect, it, vi } from 'vitest';
import { validateConfig } from '#core/config/load';
import { baseConfig } from './helpers';

describe('validateConfig', () => {
  it('compiles no code (jitless) and still returns the parsed config', () => {
    const compiled = vi.spyOn(globalThis, 'Function');
    try {
      const config = validateConfig(baseConfig());
      expect(config.schedules.length).toBeGreaterThan(0);
      expect(compiled).not.toHaveBeenCalled();
    } finally {
      compiled.mockRestore();
    }
  });
});
