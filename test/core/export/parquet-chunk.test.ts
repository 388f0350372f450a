/**
 * A column chunk written page by page as its rows arrive (`ColumnChunk`, core/export/parquet-chunk.ts):
 * - fed slice by slice (as the encoder worker feeds it while a row group fills) it writes exactly the
 *   bytes, and records exactly the chunk, that feeding the whole group at once writes — for every
 *   type, nulls, NaN and -0, low and high cardinality, several pages, any slicing;
 * - every value reads back exactly (hyparquet), also where the dictionary of a fixed-size column stops
 *   paying part-way and the chunk falls back to PLAIN pages;
 * - no page holds more than `PAGE_ROWS` rows;
 * - the dictionary is decided on the first 5,000 rows (a column that repeats only later stays PLAIN).
 */
import fc from 'fast-check';
import { parquetMetadata, parquetRead } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import type { Cell } from '#core/export/flatten';
import type { ColumnDef } from '#core/export/model';
import { ParquetEncoder } from '#core/export/parquet';
import { ByteSink } from '#core/export/parquet-bytes';
import { ColumnChunk } from '#core/export/parquet-chunk';
import { PAGE_ROWS, type ParquetType } from '#core/export/parquet-schema';

const column = (type: ParquetType): ColumnDef =>
  ({ name: 'c', type, role: 'metric', key: 'c', source: { kind: 'metric', name: 'c' } }) as ColumnDef;

/**
 * Cells of a column of `type`, as the column holds them (`columnCells`), from a few or many values:
 * up to 10,000 rows (`size: 'max'`: fast-check would otherwise keep arrays to ~10 elements), so
 * chunks of several pages and past the rows the dictionary is decided on.
 */
function cellsOf(type: ParquetType): fc.Arbitrary<Cell[]> {
  const value: Record<ParquetType, fc.Arbitrary<Cell>> = {
    string: fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 4 })),
    int64: fc.oneof(
      fc.integer({ min: -1e6, max: 1e6 }),
      fc.constant(-0),
      fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 63n - 1n }),
    ),
    double: fc.oneof(fc.double(), fc.constant(-0), fc.constant(0), fc.constant(Number.NaN)),
    boolean: fc.boolean(),
    date: fc.integer({ min: 0, max: 20_000 }).map((d) => new Date(d * 86_400_000).toISOString().slice(0, 10)),
    timestamp: fc
      .integer({ min: 0, max: 2_000_000_000_000 })
      .map((ms) => new Date(ms).toISOString().replace('Z', '+00:00')),
  };
  const pick = (pool: Cell[], maxLength = 3_000) =>
    fc.array(
      fc.oneof(
        { weight: 1, arbitrary: fc.constant(null) },
        { weight: 6, arbitrary: fc.constantFrom(...pool) },
      ),
      { maxLength, size: 'max' },
    );
  return fc.oneof(
    // few distinct values: a dictionary pays
    fc.array(value[type], { minLength: 1, maxLength: 4 }).chain(pick),
    // mostly distinct values: written plain
    fc.array(fc.option(value[type], { freq: 8 }), { maxLength: 3_000, size: 'max' }),
    // a few repeated values first, then distinct ones (a dictionary first, then PLAIN pages)
    fc
      .tuple(
        fc.array(value[type], { minLength: 1, maxLength: 3 }).chain(pick),
        fc.array(fc.option(value[type], { freq: 8 }), { maxLength: 2_000, size: 'max' }),
      )
      .map(([a, b]) => [...a, ...b]),
    // past the rows the dictionary is decided on: repeated values, then distinct ones
    fc
      .tuple(
        fc.array(value[type], { minLength: 1, maxLength: 3 }).chain((pool) => pick(pool, 7_000)),
        fc.array(fc.option(value[type], { freq: 8 }), { maxLength: 3_000, size: 'max' }),
      )
      .map(([a, b]) => [...a, ...b]),
    // distinct first, then a few repeated
    fc
      .tuple(
        fc.array(fc.option(value[type], { freq: 8 }), { maxLength: 1_500, size: 'max' }),
        fc.array(value[type], { minLength: 1, maxLength: 3 }).chain(pick),
      )
      .map(([a, b]) => [...a, ...b, ...b]),
  );
}

/** Slice lengths that add up to `rows`. */
const slicing = (rows: number) =>
  fc.array(fc.integer({ min: 1, max: 1_200 }), { maxLength: 12, size: 'max' }).map((cuts) => {
    const out: number[] = [];
    let left = rows;
    for (const c of cuts) {
      if (left === 0) break;
      out.push(Math.min(c, left));
      left -= Math.min(c, left);
    }
    if (left > 0) out.push(left);
    return out;
  });

function written(chunk: ColumnChunk) {
  const out = new ByteSink();
  const recorded = chunk.write(out, 4);
  return { bytes: Buffer.from(out.take()).toString('base64'), chunk: recorded };
}

/** A one-column Parquet file of `cells` in one row group, as the part encoder writes it. */
function fileOf(type: ParquetType, cells: readonly Cell[]): ArrayBuffer {
  const enc = new ParquetEncoder([column(type)]);
  const bytes = Buffer.concat([...enc.group({ rows: cells.length, of: () => cells }), ...enc.finish()]);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

async function readBack(file: ArrayBuffer): Promise<unknown[]> {
  const rows = await new Promise<unknown[][]>((resolve, reject) => {
    parquetRead({ file, rowFormat: 'array', onComplete: resolve }).catch(reject);
  });
  return rows.map((r) => r[0]);
}

/** A cell as hyparquet reads it back (int64 as bigint; a lone surrogate as UTF-8 carries it). */
function expected(type: ParquetType, v: Cell): unknown {
  if (v === null) return null;
  if (type === 'int64') return BigInt(v as number | bigint);
  if (type === 'string') return (v as string).replace(/\p{Cs}/gu, '\ufffd');
  return v;
}

describe('Parquet column chunks written page by page', () => {
  const TYPES: ParquetType[] = ['string', 'int64', 'double', 'boolean', 'date', 'timestamp'];
  for (const type of TYPES) {
    it(`${type}: fed slice by slice, the same chunk as fed at once`, () => {
      fc.assert(
        fc.property(
          cellsOf(type).chain((cells) => fc.tuple(fc.constant(cells), slicing(cells.length))),
          ([cells, slices]) => {
            const whole = new ColumnChunk(column(type));
            whole.add(cells);
            const sliced = new ColumnChunk(column(type));
            let at = 0;
            for (const n of slices) {
              sliced.add(cells.slice(at, at + n));
              at += n;
            }
            const got = written(sliced);
            expect(got).toEqual(written(whole));
            const firstRows = got.chunk.pages.map((p) => p.firstRow);
            for (const [k, first] of firstRows.entries())
              expect((firstRows[k + 1] ?? cells.length) - first).toBeLessThanOrEqual(PAGE_ROWS);
          },
        ),
        { numRuns: 40 },
      );
    });
  }

  for (const type of ['string', 'int64', 'double', 'boolean'] as const) {
    it(`${type}: every value reads back exactly, whatever pages and encodings the chunk took`, async () => {
      await fc.assert(
        fc.asyncProperty(cellsOf(type), async (cells) => {
          const got = await readBack(fileOf(type, cells));
          expect(got).toEqual(cells.map((v) => expected(type, v)));
        }),
        { numRuns: 25 },
      );
    });
  }

  it('falls back to PLAIN pages once the dictionary stops paying, and reads back exactly', async () => {
    // a few values for the rows the dictionary is decided on, then distinct ones: a dictionary page,
    // RLE_DICTIONARY pages, PLAIN pages
    const cells: Cell[] = [
      ...Array.from({ length: 5_000 }, (_, i) => [7, 8, null][i % 3] as Cell),
      ...Array.from({ length: 5_000 }, (_, i) => (i % 9 === 0 ? null : i * 7_919)),
    ];
    const file = fileOf('int64', cells);
    const meta = parquetMetadata(file).row_groups[0]?.columns[0]?.meta_data;
    expect(meta?.encodings).toEqual(['PLAIN', 'RLE', 'RLE_DICTIONARY']);
    const stats = meta?.encoding_stats?.map((s) => [s.page_type, s.encoding, s.count]);
    expect(stats?.[0]).toEqual(['DICTIONARY_PAGE', 'PLAIN', 1]);
    const dictPages = stats?.find((s) => s[0] === 'DATA_PAGE' && s[1] === 'RLE_DICTIONARY')?.[2];
    const plainPages = stats?.find((s) => s[0] === 'DATA_PAGE' && s[1] === 'PLAIN')?.[2];
    expect(dictPages).toBeGreaterThanOrEqual(5);
    expect(plainPages).toBeGreaterThanOrEqual(1);
    expect(Number(dictPages) + Number(plainPages)).toBe(10);
    expect(await readBack(file)).toEqual(cells.map((v) => expected('int64', v)));
  });

  it('a string column keeps its dictionary to the chunk end (no PLAIN pages after it)', async () => {
    const cells: Cell[] = [
      ...Array.from({ length: 5_000 }, (_, i) => ['instagram', 'tiktok', null][i % 3] as Cell),
      ...Array.from({ length: 3_000 }, (_, i) => `post-${i}`),
    ];
    const file = fileOf('string', cells);
    const stats = parquetMetadata(file).row_groups[0]?.columns[0]?.meta_data?.encoding_stats;
    expect(stats?.map((s) => [s.page_type, s.encoding, s.count])).toEqual([
      ['DICTIONARY_PAGE', 'PLAIN', 1],
      ['DATA_PAGE', 'RLE_DICTIONARY', 8],
    ]);
    expect(await readBack(file)).toEqual(cells);
  });

  it('a column whose first 5,000 rows are distinct and whose later rows repeat stays PLAIN', () => {
    // the dictionary is decided on the first pages (it is never taken up later)
    const cells: Cell[] = [
      ...Array.from({ length: 5_000 }, (_, i) => `unique-${i}`),
      ...Array.from({ length: 9_000 }, (_, i) => ['a', 'b', 'c'][i % 3] as string),
    ];
    const meta = parquetMetadata(fileOf('string', cells)).row_groups[0]?.columns[0]?.meta_data;
    expect(meta?.encodings).toEqual(['PLAIN', 'RLE']);
    expect(meta?.dictionary_page_offset).toBeUndefined();
  });
});
