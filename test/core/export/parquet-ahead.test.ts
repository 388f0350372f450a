/**
 * A row group's Parquet columns prepared slice by slice as the rows arrive (`ColumnAhead`,
 * core/export/parquet-ahead.ts) must write exactly the bytes, and record exactly the chunk, that
 * preparing the whole group's cells at once writes (`prepareColumn`, which the golden test holds to
 * hyparquet-writer): for every type, nulls, NaN and -0, low and high cardinality (a dictionary or
 * not, also when the first slices and the whole group disagree), several pages, any slicing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cell } from '#core/export/flatten';
import type { ColumnDef } from '#core/export/model';
import { ColumnAhead } from '#core/export/parquet-ahead';
import { ByteSink } from '#core/export/parquet-bytes';
import { prepareColumn, Scratch, writePrepared } from '#core/export/parquet-pages';
import type { ParquetType } from '#core/export/parquet-schema';

const column = (type: ParquetType): ColumnDef =>
  ({ name: 'c', type, role: 'metric', key: 'c', source: { kind: 'metric', name: 'c' } }) as ColumnDef;

/** Cells of a column of `type`, as the column holds them (`columnCells`), from a few or many values. */
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
  const pick = (pool: Cell[]) =>
    fc.array(
      fc.oneof(
        { weight: 1, arbitrary: fc.constant(null) },
        { weight: 6, arbitrary: fc.constantFrom(...pool) },
      ),
      {
        maxLength: 3_000,
      },
    );
  return fc.oneof(
    // few distinct values: a dictionary pays
    fc.array(value[type], { minLength: 1, maxLength: 4 }).chain(pick),
    // mostly distinct values: written plain
    fc.array(fc.option(value[type], { freq: 8 }), { maxLength: 3_000 }),
    // distinct first, then a few repeated (the first slice says plain, the whole group may not)
    fc
      .tuple(
        fc.array(fc.option(value[type], { freq: 8 }), { maxLength: 1_500 }),
        fc.array(value[type], { minLength: 1, maxLength: 3 }).chain(pick),
      )
      .map(([a, b]) => [...a, ...b, ...b, ...b]),
  );
}

/** Slice lengths that add up to `rows`. */
const slicing = (rows: number) =>
  fc.array(fc.integer({ min: 1, max: 1_200 }), { maxLength: 8 }).map((cuts) => {
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

function written(def: ColumnDef, prepare: (scratch: Scratch) => ReturnType<typeof prepareColumn>) {
  const out = new ByteSink();
  const scratch = new Scratch();
  const chunk = writePrepared(out, 4, scratch, def, prepare(scratch));
  return { bytes: Buffer.from(out.take()).toString('base64'), chunk };
}

describe('Parquet columns prepared slice by slice', () => {
  const TYPES: ParquetType[] = ['string', 'int64', 'double', 'boolean', 'date', 'timestamp'];
  for (const type of TYPES) {
    it(`${type}: the same chunk as the whole group prepared at once`, () => {
      fc.assert(
        fc.property(
          cellsOf(type).chain((cells) => fc.tuple(fc.constant(cells), slicing(cells.length))),
          ([cells, slices]) => {
            const def = column(type);
            const whole = written(def, (scratch) => prepareColumn(def, cells, scratch));
            const ahead = new ColumnAhead(def);
            let at = 0;
            for (const n of slices) {
              ahead.add(cells.slice(at, at + n));
              at += n;
            }
            expect(written(def, () => ahead.prepared())).toEqual(whole);
          },
        ),
        { numRuns: 40 },
      );
    });
  }

  it('a column whose first slices are distinct and whose group repeats a few values gets its dictionary', () => {
    // regression shape: ahead gives up the dictionary after the first slice; the group's sample wants one
    const def = column('string');
    const cells: Cell[] = [
      ...Array.from({ length: 1_000 }, (_, i) => `unique-${i}`),
      ...Array.from({ length: 9_000 }, (_, i) => ['a', 'b', 'c'][i % 3] as string),
    ];
    const ahead = new ColumnAhead(def);
    for (let i = 0; i < cells.length; i += 1_000) ahead.add(cells.slice(i, i + 1_000));
    const prepared = ahead.prepared();
    expect(prepared.dict).toBeDefined();
    expect(written(def, () => prepared)).toEqual(written(def, (s) => prepareColumn(def, cells, s)));
  });
});
