import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import type { Catalog, GlueColumn, TableSpec } from '#core/export/catalog';
import { mergedColumns } from '#core/export/catalog';
import type { ColumnModel } from '#core/export/model';
import { sinkModelStore } from '#core/export/model-store';
import { syncCatalog } from '#core/run/catalog-sync';
import { postsConfig } from './fakes';

/** A catalog in memory that records what it was asked to do. */
function memoryCatalog(initial: Record<string, GlueColumn[]> = {}) {
  const tables = new Map<string, { spec?: TableSpec; columns: GlueColumn[] }>(
    Object.entries(initial).map(([name, columns]) => [name, { columns }]),
  );
  const catalog: Catalog = {
    columns: async (t) => tables.get(t)?.columns ?? null,
    setColumns: async (t, columns) => {
      const table = tables.get(t);
      if (table) table.columns = [...columns];
    },
    createTable: async (spec) => {
      if (tables.has(spec.name)) return false;
      tables.set(spec.name, { spec, columns: [...spec.columns] });
      return true;
    },
  };
  return { catalog, tables };
}

const model = (...names: string[]): ColumnModel => ({
  modelVersion: 1,
  naming: 'snake_case',
  columns: names.map((name) => ({ name, type: 'string', source: { kind: 'field', path: [name] } })),
});
const cols = (...names: string[]): GlueColumn[] => names.map((name) => ({ name, type: 'string' }));

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function stored(m: ColumnModel) {
  const root = mkdtempSync(join(tmpdir(), 'catalog-sync-'));
  dirs.push(root);
  const sink = createFsSink(root);
  const config = postsConfig();
  await sinkModelStore(sink, config.output.prefix, 'daily', 'posts').update(() => m);
  return { sink, config };
}

const run = (status: 'succeeded' | 'failed' = 'succeeded') => ({
  scheduleId: 'daily',
  reports: [{ reportId: 'posts', route: '/v2/posts/performance', status }],
});

describe('the workflow owns the Glue tables', () => {
  it("creates a report's table at its first successful run, with the whole model, over the format's folder", async () => {
    const { sink, config } = await stored(model('post_id', 'window_end', 'likes'));
    const { catalog, tables } = memoryCatalog();
    const result = await syncCatalog(config, run(), sink, catalog);
    expect(result).toEqual({ created: ['daily__posts__parquet'], updated: [] });
    const table = tables.get('daily__posts__parquet');
    expect(table?.columns).toEqual(cols('post_id', 'window_end', 'likes'));
    expect(table?.spec?.location).toBe(sink.locate(`${config.output.prefix}daily/posts/parquet/`));
    expect(table?.spec?.format).toBe('parquet');
  });

  it('extends a table to the model and keeps a column the model no longer names (never removes one)', async () => {
    const { sink, config } = await stored(model('post_id', 'window_end', 'likes', 'shares'));
    const { catalog, tables } = memoryCatalog({
      daily__posts__parquet: cols('post_id', 'window_end', 'likes', 'dropped_by_hand'),
    });
    const result = await syncCatalog(config, run(), sink, catalog);
    expect(result).toEqual({ created: [], updated: ['daily__posts__parquet'] });
    expect(tables.get('daily__posts__parquet')?.columns).toEqual(
      cols('post_id', 'window_end', 'likes', 'shares', 'dropped_by_hand'),
    );
  });

  it('leaves an equal table alone and touches no table of a failed report', async () => {
    const { sink, config } = await stored(model('post_id', 'likes'));
    const { catalog } = memoryCatalog({ daily__posts__parquet: cols('post_id', 'likes') });
    expect(await syncCatalog(config, run(), sink, catalog)).toEqual({ created: [], updated: [] });
    const empty = memoryCatalog();
    expect(await syncCatalog(config, run('failed'), sink, empty.catalog)).toEqual({
      created: [],
      updated: [],
    });
    expect(empty.tables.size).toBe(0);
  });

  it('extends the table another run created first instead of failing', async () => {
    const { sink, config } = await stored(model('post_id', 'likes', 'shares'));
    const { catalog, tables } = memoryCatalog();
    // the table appears between this run's read and its create
    const racing: Catalog = {
      ...catalog,
      columns: async (t) => {
        const have = await catalog.columns(t);
        if (have === null) tables.set(t, { columns: cols('post_id', 'likes') });
        return have;
      },
    };
    expect(await syncCatalog(config, run(), sink, racing)).toEqual({
      created: [],
      updated: ['daily__posts__parquet'],
    });
    expect(tables.get('daily__posts__parquet')?.columns).toEqual(cols('post_id', 'likes', 'shares'));
  });
});

describe('mergedColumns', () => {
  const columns = fc.uniqueArray(
    fc.record({
      name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'A'),
      type: fc.constantFrom('string', 'bigint'),
    }),
    { selector: (c) => c.name },
  );
  test.prop([columns, columns], { seed: 28, numRuns: 300 })(
    "keeps every column of the table and of the model, the model's first and in its order, each name once; merging again changes nothing",
    (have, want) => {
      const merged = mergedColumns(have, want);
      const names = merged.map((c) => c.name);
      expect(merged.slice(0, want.length)).toEqual(want);
      expect(new Set(names)).toEqual(new Set([...have, ...want].map((c) => c.name)));
      expect(names.length).toBe(new Set(names).size);
      expect(mergedColumns(merged, want)).toEqual(merged);
    },
  );

  it("gives a column the model names the model's type", () => {
    expect(mergedColumns([{ name: 'a', type: 'string' }], [{ name: 'a', type: 'bigint' }])).toEqual([
      { name: 'a', type: 'bigint' },
    ]);
  });
});
