/**
 * The main thread's old-generation growth for CLI exports (functions/adapters/lean-heap.ts): V8's own
 * for the first `SHORT_MS` of the process, then `HEAP_GROWING_PERCENT` with one full collection; at
 * once when an export starts later than that. The V8 flags are recorded, and still set for real.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const flags: string[] = [];

vi.mock('node:v8', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:v8')>();
  return {
    ...real,
    setFlagsFromString: (flag: string) => {
      flags.push(flag);
      real.setFlagsFromString(flag);
    },
  };
});

async function load() {
  vi.resetModules();
  return import('#adapters/lean-heap');
}

beforeEach(() => {
  flags.length = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('leanHeap', () => {
  it('keeps V8 own growth until SHORT_MS after the start, then sets the percentage and collects once', async () => {
    const { leanHeap, SHORT_MS, HEAP_GROWING_PERCENT } = await load();
    vi.advanceTimersByTime(SHORT_MS / 4);
    leanHeap();
    vi.advanceTimersByTime(SHORT_MS - SHORT_MS / 4 - 1);
    expect(flags).toEqual([]);
    vi.advanceTimersByTime(1);
    // the collection's flag is unset again, so no later context gets `gc`
    expect(flags).toEqual([
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
      '--expose-gc',
      '--no-expose-gc',
    ]);
    leanHeap();
    vi.advanceTimersByTime(SHORT_MS * 2);
    expect(flags).toHaveLength(3);
  });

  it('sets the percentage at once, with no collection, when the export starts after SHORT_MS', async () => {
    const { leanHeap, SHORT_MS, HEAP_GROWING_PERCENT } = await load();
    vi.advanceTimersByTime(SHORT_MS + 1);
    leanHeap();
    expect(flags).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
    leanHeap();
    vi.advanceTimersByTime(SHORT_MS);
    expect(flags).toHaveLength(1);
  });

  it('does not keep the process alive for its timer', async () => {
    const { leanHeap } = await load();
    const unref = vi.fn();
    const real = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      const t = real(fn, ms);
      return Object.assign(t, {
        unref: () => {
          unref();
          return t;
        },
      });
    }) as typeof setTimeout);
    leanHeap();
    expect(unref).toHaveBeenCalledOnce();
    spy.mockRestore();
  });
});
