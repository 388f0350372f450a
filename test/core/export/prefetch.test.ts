import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { paginate } from '#core/api/paginate';
import type { ApiPage } from '#core/api/types';
import { readAhead } from '#core/export/prefetch';

/**
 * A source like the API client's pages: asking for page k starts its request, which (like a socket
 * write) only goes out on a later event-loop turn; the page then arrives a little later.
 */
function pagesSource(count: number, log: string[]) {
  return (async function* () {
    for (let k = 0; k < count; k += 1) {
      log.push(`asked ${k}`);
      setTimeout(() => log.push(`sent ${k}`), 0);
      await new Promise((resolve) => setTimeout(resolve, 2));
      yield k;
    }
  })();
}

describe('readAhead', () => {
  it('yields every page in order, never more than `depth` pages ahead of the consumer', async () => {
    const log: string[] = [];
    const got: number[] = [];
    for await (const k of readAhead(pagesSource(10, log), 3, () => undefined)) {
      got.push(k);
      const asked = log.filter((l) => l.startsWith('asked')).length;
      expect(asked).toBeLessThanOrEqual(k + 1 + 3);
    }
    expect(got).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("has the next page's request on the wire before the consumer starts on a page", async () => {
    const log: string[] = [];
    for await (const k of readAhead(pagesSource(6, log), 1, () => undefined)) {
      // the consumer's synchronous work would hold back a write that waits for the event loop
      if (k < 5) expect(log, `page ${k}`).toContain(`sent ${k + 1}`);
    }
  });

  it('calls onStop when the consumer stops early', async () => {
    const log: string[] = [];
    let stopped = 0;
    for await (const k of readAhead(pagesSource(10, log), 2, () => {
      stopped += 1;
    })) {
      if (k === 2) break;
    }
    expect(stopped).toBe(1);
  });
});

describe('readAhead over paginate: memory', () => {
  it('holds no page the consumer has taken while it waits for the next one', async () => {
    // V8 keeps a suspended generator's variables: a page held there until the next one arrives is
    // a page more in memory for the whole export. Checked with weak references after a full GC.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const taken: WeakRef<object>[] = [];
    let aliveWhileWaiting: boolean[] = [];
    const source = paginate({
      label: 'GET /v2/test',
      fetchPage: async (cursor) => {
        const k = cursor === null ? 0 : Number(cursor);
        if (k === 3) {
          // pages 0–2 were taken; let the consumer get to waiting for page 3
          await new Promise((resolve) => setTimeout(resolve, 20));
          gc();
          await new Promise((resolve) => setTimeout(resolve, 0));
          gc();
          aliveWhileWaiting = taken.map((ref) => ref.deref() !== undefined);
        }
        const rows = Array.from({ length: 100 }, (_, i) => ({ id: `${k}-${i}` }));
        taken.push(new WeakRef(rows));
        return { rows, nextCursor: k < 4 ? String(k + 1) : null };
      },
    });
    // stepped by hand as the export step does (a `for await` keeps its last result while it waits)
    const ahead = readAhead(source, 1, () => undefined);
    let next: IteratorResult<ApiPage> | undefined;
    let pages = 0;
    for (;;) {
      next = await ahead.next();
      if (next.done === true) break;
      pages += 1;
      next = undefined;
    }
    expect(pages).toBe(5);
    expect(aliveWhileWaiting).toEqual([false, false, false]);
  });
});
