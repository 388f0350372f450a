/**
 * CSV lines are encoded slice by slice as rows reach the encoder (`SliceSpec`), not all at once when a
 * row group is full. The bytes must be exactly those of encoding the whole group — also when the model
 * grows in the middle of a group (a new field, a value that breaks its column's type), where the
 * encoder falls back to encoding the group whole.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import type { ApiRow } from '#core/api/types';
import { type Encoder, inlineEncoder } from '#core/export/encoder';
import { memoryModelStore } from '#core/export/model-store';
import { ReportWriter } from '#core/export/report-writer';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** The inline encoder with the slice specs dropped: every group is encoded whole. */
function wholeGroups(): Encoder {
  const inner = inlineEncoder();
  return {
    open() {
      const s = inner.open();
      return { ...s, append: (batch) => s.append(batch) };
    },
  };
}

function rows(n: number): ApiRow[] {
  return Array.from({ length: n }, (_, i) => ({
    postId: `p${i}`,
    caption: i % 7 === 0 ? `a "quoted", ${i}\nline` : `caption ${i}`,
    // a field that appears only from row 4,000 on: the model grows in the middle of the second group
    ...(i >= 4_000 ? { late: i % 3 === 0 ? null : `late-${i}` } : {}),
    publishedAt: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T10:00:0${i % 10}.${i % 1000}Z`,
    metrics: { likes: i === 2_100 ? 'n/a' : i * 3, engagementRate: i / 7 },
  }));
}

async function csvOf(input: readonly ApiRow[], encoder: Encoder): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'eager-csv-'));
  dirs.push(dir);
  const writer = new ReportWriter({
    sink: createFsSink(dir),
    models: memoryModelStore(),
    naming: 'snake_case',
    overrides: {},
    window: { start: '2026-11-01', end: '2026-11-28', timezone: 'UTC' },
    formats: ['parquet', 'csv'],
    folders: { parquet: 'p/', csv: 'c/' },
    idFields: ['postId'],
    metrics: ['likes', 'engagementRate'],
    topBy: 'likes',
    topN: 3,
    rowGroupRows: 2_500,
    maxRowsPerPart: 1_000_000,
    maxPartBytes: 1 << 30,
    encoder,
  });
  for (const row of input) await writer.add(row);
  await writer.finish();
  const files = (await readdir(join(dir, 'c'))).sort();
  return Promise.all(files.map((f) => readFile(join(dir, 'c', f), 'utf8')));
}

describe('CSV encoded slice by slice', () => {
  it('writes the same bytes as encoding each row group whole, across model growth mid-group', async () => {
    const input = rows(7_300);
    const eager = await csvOf(input, inlineEncoder());
    const whole = await csvOf(input, wholeGroups());
    expect(eager.length).toBeGreaterThan(1); // the model grew: a second part
    expect(eager).toEqual(whole);
    const all = eager.join('');
    expect(all).toContain('"a ""quoted"", 0\nline"');
    expect(all.split('\r\n').filter((l) => l.startsWith('post_id')).length).toBe(eager.length);
  });
});
