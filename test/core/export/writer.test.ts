import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import type { ApiRow } from '#core/api/types';
import { type Encoder, inlineEncoder } from '#core/export/encoder';
import { memoryModelStore } from '#core/export/model-store';
import { ReportWriter, type ReportWriterOptions } from '#core/export/report-writer';
import type { Sink } from '#core/sink';
import { duckQuery, lit, readCsvSql } from './duck';

const WINDOW = { start: '2026-11-16', end: '2026-11-22', timezone: 'Europe/Berlin' };
const HOSTILE = [
  '=HYPERLINK("http://x","y")',
  '+1+2',
  '-3',
  '@SUM(A1)',
  '\tTabbed',
  '\rCarriage',
  'comma, "quoted" and ""doubled""',
  'line\nbreak and\r\nCRLF',
  'emoji 👩‍💻 🇧🇷 Ελληνικά 中文 عربي',
  "it's",
  '',
];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'writer-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function options(over: Partial<ReportWriterOptions> = {}): ReportWriterOptions {
  return {
    sink: createFsSink(dir),
    models: memoryModelStore(),
    naming: 'api',
    overrides: {},
    window: WINDOW,
    formats: ['parquet', 'csv'],
    folders: { parquet: 'p/', csv: 'c/' },
    idFields: ['postId'],
    metrics: ['likes', 'engagementRate'],
    topBy: 'likes',
    topN: 3,
    rowGroupRows: 4,
    maxRowsPerPart: 1000,
    maxPartBytes: 1 << 30,
    ...over,
  };
}

async function writeAll(rows: readonly ApiRow[], over: Partial<ReportWriterOptions> = {}) {
  const writer = new ReportWriter(options(over));
  for (const row of rows) await writer.add(row);
  const files = await writer.finish();
  return { writer, files };
}

describe('ReportWriter', () => {
  it('orders columns: id fields, other fields first-seen, window dates, requested metrics; types by rule', async () => {
    const { writer } = await writeAll([
      {
        platform: 'tiktok',
        postId: 'a',
        author: { id: 7, name: 'N' },
        tags: ['x', 'y'],
        metrics: { likes: 1 },
      },
    ]);
    expect(writer.columns().map((c) => `${c.name}:${c.type}`)).toEqual([
      'postId:string',
      'platform:string',
      'author_id:string',
      'author_name:string',
      'tags:string',
      'window_start:date',
      'window_end:date',
      'likes:int64',
      'engagementRate:double',
    ]);
  });

  it('writes Parquet that DuckDB reads with the declared types, nulls and JSON-text arrays', async () => {
    const { files } = await writeAll([
      { postId: 'a', tags: ['x'], metrics: { likes: 5, engagementRate: 0.25 } },
      { postId: 'b', metrics: { likes: null, engagementRate: 1 } },
      { postId: 'c', metrics: {} },
    ]);
    const parquet = files.filter((f) => f.format === 'parquet').map((f) => join(dir, f.key));
    const types = await duckQuery(`DESCRIBE SELECT * FROM read_parquet(${lit(parquet[0] ?? '')})`);
    expect(types.map((t) => `${t.column_name}:${t.column_type}`)).toEqual([
      'postId:VARCHAR',
      'tags:VARCHAR',
      'window_start:DATE',
      'window_end:DATE',
      'likes:BIGINT',
      'engagementRate:DOUBLE',
    ]);
    const rows = await duckQuery(
      `SELECT postId, tags, window_start::VARCHAR AS ws, window_end::VARCHAR AS we, likes, engagementRate FROM read_parquet([${parquet.map(lit).join(',')}]) ORDER BY postId`,
    );
    expect(rows).toEqual([
      { postId: 'a', tags: '["x"]', ws: '2026-11-16', we: '2026-11-22', likes: '5', engagementRate: 0.25 },
      { postId: 'b', tags: null, ws: '2026-11-16', we: '2026-11-22', likes: null, engagementRate: 1 },
      { postId: 'c', tags: null, ws: '2026-11-16', we: '2026-11-22', likes: null, engagementRate: null },
    ]);
  });

  it('round-trips hostile text exactly through Parquet and CSV (the guard is off by default)', async () => {
    const rows = HOSTILE.map((name, i) => ({ postId: `p${i}`, name, metrics: { likes: -i } }));
    const { files } = await writeAll(rows);
    const pq = files.filter((f) => f.format === 'parquet').map((f) => lit(join(dir, f.key)));
    const csv = files.filter((f) => f.format === 'csv').map((f) => join(dir, f.key));
    const fromParquet = await duckQuery(
      `SELECT postId, name, likes FROM read_parquet([${pq.join(',')}]) ORDER BY postId`,
    );
    const fromCsv = await duckQuery(`SELECT postId, name, likes FROM ${readCsvSql(csv)} ORDER BY postId`);
    const byId = (list: typeof fromParquet) => Object.fromEntries(list.map((r) => [r.postId, r]));
    const pqById = byId(fromParquet);
    const csvById = byId(fromCsv);
    rows.forEach((r, i) => {
      expect(pqById[r.postId]?.name).toBe(r.name);
      // CSV cannot tell '' from null without a type; DuckDB reads the empty field as null.
      expect(csvById[r.postId]?.name ?? '').toBe(r.name);
      // negative numbers are numbers: never guarded
      expect(csvById[r.postId]?.likes).toBe(String(-i));
    });
  });

  it('dictionary-encodes a low-cardinality string column and compresses with Snappy', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      postId: `post-${i}-${(i * 7919).toString(36)}`,
      platform: ['instagram', 'tiktok', 'youtube'][i % 3],
      metrics: { likes: i },
    }));
    const { files } = await writeAll(rows, { rowGroupRows: 2000 });
    const path = join(dir, files.find((f) => f.format === 'parquet')?.key ?? '');
    const meta = await duckQuery(
      `SELECT path_in_schema AS col, encodings, compression FROM parquet_metadata(${lit(path)}) ORDER BY column_id`,
    );
    const platform = meta.find((m) => m.col === 'platform');
    expect(String(platform?.encodings)).toMatch(/DICTIONARY/);
    expect(meta.every((m) => m.compression === 'SNAPPY')).toBe(true);
  });

  it('rolls to a new part at maxRowsPerPart, each part holding at most that many rows', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ postId: `p${i}`, metrics: { likes: i } }));
    const { files } = await writeAll(rows, { maxRowsPerPart: 4, rowGroupRows: 3 });
    const parquet = files.filter((f) => f.format === 'parquet');
    expect(parquet.map((f) => [f.key, f.rows])).toEqual([
      ['p/part-00000.parquet', 4],
      ['p/part-00001.parquet', 4],
      ['p/part-00002.parquet', 2],
    ]);
    const counts = await duckQuery(
      `SELECT count(*)::INT AS n, sum(likes)::INT AS s FROM read_parquet([${parquet.map((f) => lit(join(dir, f.key))).join(',')}])`,
    );
    expect(counts).toEqual([{ n: 10, s: 45 }]);
  });

  it('appends a late field at the next part, rewrites the earlier part to the model at commit, and keeps a fraction in an integer column as text', async () => {
    const rows: ApiRow[] = [
      { postId: 'a', metrics: { likes: 1 } },
      { postId: 'b', metrics: { likes: 2 } },
      { postId: 'c', extra: 'late', metrics: { likes: 2.5 } },
      { postId: 'd', metrics: { likes: 4 } },
    ];
    const { writer, files } = await writeAll(rows, { rowGroupRows: 2 });
    // the first part was written with 5 columns; at commit it carries the model's 7, like the second
    expect(files.filter((f) => f.format === 'parquet').map((f) => [f.rows, f.columns])).toEqual([
      [2, 7],
      [2, 7],
    ]);
    expect(writer.columns().map((c) => `${c.name}:${c.type}`)).toEqual([
      'postId:string',
      'window_start:date',
      'window_end:date',
      'likes:int64',
      'engagementRate:double',
      'extra:string',
      'likes__raw:string',
    ]);
    expect(writer.warnings()).toEqual([
      expect.objectContaining({
        code: 'TYPE_BREAK',
        column: 'likes',
        count: 1,
        message: expect.stringContaining('likes__raw'),
      }),
    ]);
    const pq = files.filter((f) => f.format === 'parquet').map((f) => lit(join(dir, f.key)));
    const got = await duckQuery(
      `SELECT postId, extra, likes, likes__raw FROM read_parquet([${pq.join(',')}]) ORDER BY postId`,
    );
    expect(got.map((r) => [r.postId, r.extra, r.likes, r.likes__raw])).toEqual([
      ['a', null, '1', null],
      ['b', null, '2', null],
      ['c', 'late', null, '2.5'],
      ['d', null, '4', null],
    ]);
  });

  it('keeps totals of additive counters only and the top rows by topBy', async () => {
    const rows = [5, 9, 1, 9, 7].map((likes, i) => ({
      postId: `p${i}`,
      metrics: { likes, engagementRate: 0.5 },
    }));
    const { writer } = await writeAll(rows);
    expect(writer.totalsResult()).toEqual({ likes: 31 });
    expect(writer.topRows().map((r) => [r.postId, r.likes])).toEqual([
      ['p1', 9],
      ['p3', 9],
      ['p4', 7],
    ]);
  });

  it('writes one header-only / empty part when there are no rows', async () => {
    const { files } = await writeAll([]);
    expect(files.map((f) => [f.format, f.rows])).toEqual([
      ['parquet', 0],
      ['csv', 0],
    ]);
    const n = await duckQuery(
      `SELECT count(*)::INT AS n FROM read_parquet(${lit(join(dir, 'p/part-00000.parquet'))})`,
    );
    expect(n).toEqual([{ n: 0 }]);
  });
});

/**
 * CSV lines are encoded slice by slice as rows reach the encoder (`SliceSpec`), not all at once when a
 * row group is full. The bytes must be exactly those of encoding the whole group — also when the model
 * grows in the middle of a group (a new field, a value that breaks its column's type), where the
 * encoder falls back to encoding the group whole.
 */
describe('CSV encoded slice by slice', () => {
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

  async function csvOf(input: readonly ApiRow[], encoder: Encoder, name: string): Promise<string[]> {
    return (await filesOf(input, encoder, name)).csv;
  }

  async function filesOf(input: readonly ApiRow[], encoder: Encoder, name: string) {
    const out = join(dir, name);
    const writer = new ReportWriter(
      options({
        sink: createFsSink(out),
        naming: 'snake_case',
        rowGroupRows: 2_500,
        maxRowsPerPart: 1_000_000,
        encoder,
      }),
    );
    for (const row of input) await writer.add(row);
    await writer.finish();
    const files = async (folder: string) => (await readdir(join(out, folder))).sort();
    return {
      csv: await Promise.all((await files('c')).map((f) => readFile(join(out, 'c', f), 'utf8'))),
      parquet: await Promise.all((await files('p')).map((f) => readFile(join(out, 'p', f)))),
    };
  }

  it('writes the same bytes as encoding each row group whole, across model growth mid-group', async () => {
    const input = rows(7_300);
    const eager = await csvOf(input, inlineEncoder(), 'eager');
    const whole = await csvOf(input, wholeGroups(), 'whole');
    expect(eager.length).toBeGreaterThan(1); // the model grew: a second part
    expect(eager).toEqual(whole);
    const all = eager.join('');
    expect(all).toContain('"a ""quoted"", 0\nline"');
    expect(all.split('\r\n').filter((l) => l.startsWith('post_id')).length).toBe(eager.length);
  });

  it("writes each slice's CSV lines as it is sent, before its row group ends; Parquet at the group's end", async () => {
    const real = createFsSink(join(dir, 'streamed'));
    const written = new Map<string, number>();
    // records end in CRLF; a caption's own line breaks are a bare LF, so CRs count the lines out
    let csvLines = 0;
    const sink: Sink = {
      ...real,
      openWriter(key, type) {
        const w = real.openWriter(key, type);
        return {
          ...w,
          write: async (chunk) => {
            written.set(key, (written.get(key) ?? 0) + chunk.byteLength);
            if (key.endsWith('.csv')) csvLines += chunk.filter((b) => b === 0x0d).length;
            await w.write(chunk);
          },
        };
      },
    };
    const writer = new ReportWriter(
      options({ sink, naming: 'snake_case', rowGroupRows: 2_500, maxRowsPerPart: 1_000_000 }),
    );
    const input = rows(2_000);
    await writer.addAll(input.slice(0, 1_000));
    await writer.addAll(input.slice(1_000));
    // two slices are out (of a group of 2,500 rows): their lines (and the header) are written
    // without waiting for it. (A byte count could not tell: one slice's lines were already 88 KB.)
    await vi.waitFor(() => expect(csvLines).toBe(1 + 2_000));
    const csv = written.get('c/part-00000.csv') ?? 0;
    expect(written.get('p/part-00000.parquet') ?? 0).toBe(0);
    const files = await writer.finish();
    const csvFile = files.find((f) => f.format === 'csv');
    expect(csvFile?.rows).toBe(2_000);
    // every line was out before the end: finishing adds nothing to the CSV
    expect(csvFile?.bytes).toBe(csv);
    expect(written.get('p/part-00000.parquet')).toBeGreaterThan(0);
  });

  it("writes a row group's rows sent before the model grew into the open part, the rest into the next", async () => {
    const writer = new ReportWriter(
      options({
        sink: createFsSink(join(dir, 'grown')),
        naming: 'snake_case',
        rowGroupRows: 2_500,
        maxRowsPerPart: 1_000_000,
      }),
    );
    // the model grows in the slice of rows 2,000…2,499 (a text in `likes`, row 2,100: a raw
    // companion), and in that of rows 3,500…4,499 (`late`, from row 4,000): each time the group's
    // rows sent before (0…1,999, then 2,000…3,499) stay in the open part, which closes
    await writer.addAll(rows(7_300));
    const files = await writer.finish();
    for (const format of ['csv', 'parquet'] as const)
      expect(files.filter((f) => f.format === format).map((f) => f.rows)).toEqual([2_000, 1_500, 3_800]);
  });

  it('Parquet prepared slice by slice writes the same bytes as each row group encoded whole', async () => {
    const input = rows(7_300);
    const eager = await filesOf(input, inlineEncoder(), 'eager-parquet');
    const whole = await filesOf(input, wholeGroups(), 'whole-parquet');
    expect(eager.parquet.length).toBeGreaterThan(1);
    expect(eager.parquet).toEqual(whole.parquet);
  });
});

describe('ReportWriter column order (issue 22)', () => {
  it('stores no model for a report without rows, so the next window’s id fields still come first', async () => {
    const models = memoryModelStore();
    const empty = await writeAll([], { models });
    expect(empty.writer.manifestColumns().map((c) => c.name)).toEqual([
      'window_start',
      'window_end',
      'likes',
      'engagementRate',
    ]);
    expect(await models.load()).toBeNull();
    const next = await writeAll([{ title: 't', postId: 'a', metrics: { likes: 1 } }], { models });
    expect(next.writer.manifestColumns().map((c) => c.name)).toEqual([
      'postId',
      'title',
      'window_start',
      'window_end',
      'likes',
      'engagementRate',
    ]);
  });

  it('reads metrics: null as a row without metrics, not as a field column named metrics', async () => {
    const { writer } = await writeAll([
      { postId: 'a', metrics: null },
      { postId: 'b', metrics: { likes: 2 } },
    ]);
    expect(writer.manifestColumns().map((c) => c.name)).not.toContain('metrics');
  });
});
