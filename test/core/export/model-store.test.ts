import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import { type ColumnModel, fieldKey, type ModelContext, planModel } from '#core/export/model';
import { sinkModelStore } from '#core/export/model-store';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'model-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ctx: ModelContext = { idFields: ['postId'], metrics: ['likes'], naming: 'snake_case', overrides: {} };
const withField = (name: string) => (latest: ColumnModel | null) =>
  planModel(latest, ctx, { fields: new Map([[fieldKey([name]), ['x']]]), metrics: new Map() });

describe('the stored column model', () => {
  it('lives in versioned objects beside the data and is only ever extended', async () => {
    const sink = createFsSink(dir);
    const store = sinkModelStore(sink, 'exports/', 's', 'r');
    expect(await store.load()).toBeNull();
    const v1 = await store.update(withField('postId'));
    const again = await store.update(withField('postId'));
    const v2 = await store.update(withField('extra'));
    expect([v1.version, again.version, v2.version]).toEqual([1, 1, 2]);
    expect(await sink.list('exports/s/r/_model/')).toEqual([
      'exports/s/r/_model/v000001.json',
      'exports/s/r/_model/v000002.json',
    ]);
    expect(v2.model.columns.slice(0, v1.model.columns.length)).toEqual(v1.model.columns);
    expect((await store.load())?.model).toEqual(v2.model);
  });

  it('keeps every column when many windows extend it at the same time (compare-and-swap, re-read, merge)', async () => {
    const stores = Array.from({ length: 8 }, () => sinkModelStore(createFsSink(dir), '', 's', 'r'));
    await stores[0]?.update(withField('postId'));
    const results = await Promise.all(stores.map((s, i) => s.update(withField(`field${i}`))));
    const final = (await stores[0]?.load())?.model;
    const names = final?.columns.map((c) => c.name) ?? [];
    for (let i = 0; i < 8; i += 1) expect(names).toContain(`field${i}`);
    // what each writer got back (and wrote its files with) is a prefix of the final model
    for (const r of results) expect(final?.columns.slice(0, r.model.columns.length)).toEqual(r.model.columns);
    expect(new Set(names).size).toBe(names.length);
  });
});
