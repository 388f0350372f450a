import { describe, expect, it } from 'vitest';
import { paginate, type RawPage } from '#core/api/paginate';
import { isExporterError } from '#core/errors';

type Row = Record<string, unknown>;

/** A fetcher serving `pages` keyed by the cursor asked for ('' = first page), recording the cursors. */
function server(pages: Record<string, RawPage<Row>>) {
  const asked: Array<string | null> = [];
  return {
    asked,
    fetchPage: async (cursor: string | null) => {
      asked.push(cursor);
      const page = pages[cursor ?? ''];
      if (!page) throw new Error(`no page for cursor ${cursor}`);
      return page;
    },
  };
}

async function collect(options: Parameters<typeof paginate<Row>>[0]) {
  const out = [];
  for await (const page of paginate<Row>(options)) out.push(page);
  return out;
}

describe('paginate', () => {
  it.each([
    ['null', null],
    ['absent', undefined],
    ['an empty string', ''],
  ])('stops when nextCursor is %s', async (_what, last) => {
    const s = server({
      '': { rows: [{ a: 1 }], nextCursor: 'c1' },
      c1: { rows: [{ a: 2 }], nextCursor: last },
    });
    const pages = await collect({ fetchPage: s.fetchPage, label: 'GET /v2/x' });
    expect(pages.map((p) => p.rows)).toEqual([[{ a: 1 }], [{ a: 2 }]]);
    expect(pages.map((p) => p.nextCursor)).toEqual(['c1', null]);
    expect(s.asked).toEqual([null, 'c1']);
  });

  it('follows empty pages that still carry a cursor', async () => {
    const s = server({
      '': { rows: [], nextCursor: 'c1' },
      c1: { rows: [], nextCursor: 'c2' },
      c2: { rows: [{ a: 1 }], nextCursor: null },
    });
    const pages = await collect({ fetchPage: s.fetchPage, label: 'GET /v2/x' });
    expect(pages.map((p) => p.index)).toEqual([0, 1, 2]);
    expect(pages.flatMap((p) => p.rows)).toEqual([{ a: 1 }]);
  });

  it('fails with API_CURSOR_LOOP when the server sends back a cursor it already sent', async () => {
    const s = server({
      '': { rows: [{ a: 1 }], nextCursor: 'c1' },
      c1: { rows: [{ a: 2 }], nextCursor: 'c2' },
      c2: { rows: [{ a: 3 }], nextCursor: 'c1' },
    });
    const err = await collect({ fetchPage: s.fetchPage, label: 'GET /v2/posts/performance' }).catch((e) => e);
    expect(isExporterError(err, 'API_CURSOR_LOOP')).toBe(true);
    expect((err as Error).message).toContain('GET /v2/posts/performance');
    expect(s.asked).toEqual([null, 'c1', 'c2']);
  });

  it('treats the cursor it resumed at as already seen', async () => {
    const s = server({ r: { rows: [], nextCursor: 'r' } });
    const err = await collect({ fetchPage: s.fetchPage, label: 'x', startCursor: 'r' }).catch((e) => e);
    expect(isExporterError(err, 'API_CURSOR_LOOP')).toBe(true);
  });

  it('resumes at a given cursor, numbering pages from there', async () => {
    const s = server({ c5: { rows: [{ a: 5 }], nextCursor: null } });
    const pages = await collect({ fetchPage: s.fetchPage, label: 'x', startCursor: 'c5' });
    expect(pages).toEqual([{ rows: [{ a: 5 }], nextCursor: null, index: 0 }]);
  });

  it('gives up on an endless run of empty pages with fresh cursors', async () => {
    let n = 0;
    const fetchPage = async () => ({ rows: [], nextCursor: `c${++n}` });
    const err = await collect({ fetchPage, label: 'x', maxEmptyPages: 50 }).catch((e) => e);
    expect(isExporterError(err, 'API_CURSOR_LOOP')).toBe(true);
    expect(n).toBe(50);
  });

  it('fetches the next page only when the consumer asks for it', async () => {
    const s = server({ '': { rows: [{ a: 1 }], nextCursor: 'c1' }, c1: { rows: [], nextCursor: null } });
    const it = paginate<Row>({ fetchPage: s.fetchPage, label: 'x' })[Symbol.asyncIterator]();
    await it.next();
    expect(s.asked).toEqual([null]);
    await it.next();
    expect(s.asked).toEqual([null, 'c1']);
  });
});
