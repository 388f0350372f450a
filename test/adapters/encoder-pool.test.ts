/**
 * The encoder worker pool (a real `worker_threads` worker running the TypeScript sources through tsx):
 * same bytes as encoding on the calling thread, transferred rather than copied, failures surfaced as
 * ENCODE_FAILED — including a worker killed by its heap limit — and a fresh worker afterwards.
 */
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createEncoderPool, defaultWorkerCount, WORKERS_ENV } from '#adapters/encoder-pool';
import { type EncodedBytes, type Encoder, inlineEncoder, type PartSpec } from '#core/export/encoder';
import type { Cell } from '#core/export/flatten';
import type { ColumnDef } from '#core/export/model';
import type { ColumnBatch } from '#core/export/rowgroup';

const WINDOW = { start: '2026-11-16', end: '2026-11-22', timezone: 'UTC' };
const COLUMNS: ColumnDef[] = [
  {
    name: 'postId',
    type: 'string',
    role: 'id',
    source: { kind: 'field', path: ['postId'] },
    key: '["postId"]',
  },
  { name: 'window_start', type: 'date', role: 'window', source: { kind: 'window', which: 'start' }, key: '' },
  { name: 'likes', type: 'int64', role: 'metric', source: { kind: 'metric', name: 'likes' }, key: 'likes' },
  { name: 'rate', type: 'double', role: 'metric', source: { kind: 'metric', name: 'rate' }, key: 'rate' },
];
const PART: PartSpec = { id: 0, columns: COLUMNS, formats: ['parquet', 'csv'], window: WINDOW };

function batch(from: number, rows: number): ColumnBatch {
  const ids: Cell[] = [];
  const likes: Cell[] = [];
  const rate: Cell[] = [];
  for (let i = from; i < from + rows; i += 1) {
    ids.push(i % 10 === 0 ? `=cmd ${i}, "q"` : `p${i}`);
    likes.push(i % 7 === 0 ? null : i * 31);
    rate.push(i / 3);
  }
  return {
    rows,
    fields: [['["postId"]', ids]],
    metrics: [
      ['likes', likes],
      ['rate', rate],
    ],
  };
}

async function encodeAll(encoder: Encoder): Promise<EncodedBytes[]> {
  const stream = encoder.open();
  const out: EncodedBytes[] = [];
  for (let g = 0; g < 3; g += 1) {
    for (let s = 0; s < 20; s += 1) await stream.append(batch(g * 2000 + s * 100, 100));
    out.push(await stream.encode(PART));
  }
  out.push(await stream.finish(PART));
  stream.close();
  return out;
}

const joined = (all: EncodedBytes[], format: 'parquet' | 'csv') =>
  Buffer.concat(all.flatMap((o) => o[format] ?? []));

const pool = createEncoderPool({ workers: 1 });
afterAll(async () => {
  await pool.close();
});

describe('encoder worker pool', () => {
  it('produces the same Parquet and CSV bytes as encoding on the calling thread', async () => {
    const [inWorker, inline] = await Promise.all([encodeAll(pool), encodeAll(inlineEncoder())]);
    expect(joined(inWorker, 'parquet').length).toBeGreaterThan(1000);
    expect(joined(inWorker, 'parquet').equals(joined(inline, 'parquet'))).toBe(true);
    expect(joined(inWorker, 'csv').toString()).toBe(joined(inline, 'csv').toString());
    // exact: the exported CSV is data for machines (the formula guard is for emailed copies)
    expect(joined(inWorker, 'csv').toString()).toContain(`"=cmd 10, ""q"""`);
  }, 60_000);

  it('answers each slice sent with its spec and part with its CSV lines at once (header first), the same bytes as a group encoded whole, in the worker and inline', async () => {
    const SPEC = { columns: COLUMNS, window: WINDOW, formulaGuard: false, formats: PART.formats };
    for (const encoder of [pool, inlineEncoder()]) {
      const stream = encoder.open();
      const out: EncodedBytes[] = [];
      for (let g = 0; g < 3; g += 1) {
        for (let s = 0; s < 20; s += 1) {
          const sent = await stream.append(batch(g * 2000 + s * 100, 100), SPEC, PART);
          const now = await sent.bytes;
          // a slice's lines (and the part's header before the first), never Parquet before the group ends
          expect(
            Buffer.concat(now.csv ?? [])
              .toString()
              .split('\r\n'),
          ).toHaveLength(g + s === 0 ? 102 : 101);
          expect(now.parquet).toBeUndefined();
          out.push(now);
        }
        const group = await stream.encode(PART);
        expect(group.csv).toEqual([]);
        out.push(group);
      }
      out.push(await stream.finish(PART));
      stream.close();
      const whole = await encodeAll(inlineEncoder());
      expect(joined(out, 'csv').toString()).toBe(joined(whole, 'csv').toString());
      expect(joined(out, 'parquet').equals(joined(whole, 'parquet'))).toBe(true);
    }
  }, 60_000);

  it('refuses to encode a group whose slices went out for another part or other columns', async () => {
    const SPEC = { columns: COLUMNS, window: WINDOW, formulaGuard: false, formats: PART.formats };
    const elsewhere = inlineEncoder().open();
    await elsewhere.append(batch(0, 10), SPEC, PART);
    await expect(elsewhere.encode({ ...PART, id: 1 })).rejects.toThrow(
      /written to part 0 .* encoded into part 1/,
    );
    // taken ahead (not kept), then a slice for other columns: the group cannot be encoded whole
    const grown = inlineEncoder().open();
    await grown.append(batch(0, 10), SPEC);
    await grown.append(batch(10, 10), { ...SPEC, columns: COLUMNS.slice(0, 3) });
    await expect(grown.encode(PART)).rejects.toThrow(/10 of them taken ahead .* cannot be encoded whole/);
  });

  it('encodes only the rows appended before encode was called, even when the next group is appended before it answers', async () => {
    // the writer pipelines: it sends the next group's slices without awaiting the encode (issue 22:
    // a roll-over then put the next group's first slice into the closing part)
    const stream = pool.open();
    await stream.append(batch(0, 100));
    const first = stream.encode(PART);
    await stream.append(batch(100, 7));
    const lines = (r: EncodedBytes) =>
      Buffer.concat(r.csv ?? [])
        .toString()
        .trim()
        .split('\r\n');
    expect(lines(await first)).toHaveLength(101);
    const second = await stream.encode({ ...PART, id: 1 });
    expect(lines(second)).toHaveLength(8);
    stream.close();
  }, 60_000);

  it('prestart starts the workers without waiting, and the streams opened after use them', async () => {
    const early = createEncoderPool({ workers: 1 });
    // the worker's thread exists as soon as prestart returns (Linux: one entry per thread)
    const threads = () => readdirSync('/proc/self/task').length;
    const before = threads();
    try {
      early.prestart();
      expect(threads()).toBeGreaterThan(before);
      const bytes = await encodeAll(early);
      expect(joined(bytes, 'csv')).toEqual(joined(await encodeAll(inlineEncoder()), 'csv'));
    } finally {
      await early.close();
    }
  });

  it('keeps two streams on one worker apart', async () => {
    const a = pool.open();
    const b = pool.open();
    await a.append(batch(0, 5));
    await b.append(batch(101, 3));
    await a.append(batch(5, 5));
    const [ra, rb] = await Promise.all([a.encode(PART), b.encode(PART)]);
    const lines = (r: EncodedBytes) =>
      Buffer.concat(r.csv ?? [])
        .toString()
        .trim()
        .split('\r\n');
    expect(lines(ra)).toHaveLength(11);
    expect(lines(rb)).toHaveLength(4);
    expect(lines(rb)[1]).toMatch(/^p101,/);
    a.close();
    b.close();
  }, 60_000);

  it('fails a call whose encoding throws with ENCODE_FAILED, and the worker goes on serving', async () => {
    const stream = pool.open();
    await stream.append(batch(0, 10));
    const bad = { ...PART, formats: ['xlsx'] } as unknown as PartSpec;
    await expect(stream.encode(bad)).rejects.toMatchObject({ code: 'ENCODE_FAILED' });
    const ok = pool.open();
    await ok.append(batch(0, 10));
    expect((await ok.encode(PART)).csv?.length).toBe(1);
  }, 60_000);

  it('a worker over its heap limit fails its calls with ENCODE_FAILED; the next stream gets a new worker', async () => {
    const small = createEncoderPool({ workers: 1, heapMb: 16 });
    try {
      const stream = small.open();
      const wide: Cell[] = Array.from({ length: 20_000 }, (_, i) => `${i}`.padEnd(2_000, 'x'));
      const attempt = (async () => {
        for (let i = 0; i < 20; i += 1)
          await stream.append({ rows: wide.length, fields: [['postId', wide]], metrics: [] });
        return stream.encode(PART);
      })();
      await expect(attempt).rejects.toMatchObject({ code: 'ENCODE_FAILED' });
      const next = small.open();
      await next.append(batch(0, 10));
      expect((await next.encode(PART)).parquet?.length).toBeGreaterThan(0);
    } finally {
      await small.close();
    }
  }, 120_000);
});

describe('how many workers a pool starts', () => {
  it('one per core beyond two, at most four: none on one or two cores', () => {
    const counts = [1, 2, 3, 4, 6, 8, 64].map((cores) => defaultWorkerCount({}, cores));
    expect(counts).toEqual([0, 0, 1, 2, 4, 4, 4]);
  });

  it(`${WORKERS_ENV} overrides the count, and a value that is not 0–4 is refused naming the variable`, () => {
    expect(defaultWorkerCount({ [WORKERS_ENV]: '0' }, 16)).toBe(0);
    expect(defaultWorkerCount({ [WORKERS_ENV]: '3' }, 2)).toBe(3);
    expect(defaultWorkerCount({ [WORKERS_ENV]: '' }, 5)).toBe(3);
    for (const bad of ['5', '-1', 'two', '1.5', ' 1'])
      expect(() => defaultWorkerCount({ [WORKERS_ENV]: bad }, 4)).toThrow(
        expect.objectContaining({ code: 'USAGE', message: expect.stringContaining(WORKERS_ENV) }),
      );
  });

  it('a pool of no workers encodes on the calling thread: no thread started, the same bytes', async () => {
    const none = createEncoderPool({ workers: 0 });
    const threads = () => readdirSync('/proc/self/task').length;
    const before = threads();
    none.prestart();
    await none.warm();
    const bytes = await encodeAll(none);
    expect(threads()).toBe(before);
    const inline = await encodeAll(inlineEncoder());
    expect(joined(bytes, 'parquet').equals(joined(inline, 'parquet'))).toBe(true);
    expect(joined(bytes, 'csv').toString()).toBe(joined(inline, 'csv').toString());
    await none.close();
  });
});
