/**
 * Golden test of our Parquet part encoder (`core/export/parquet.ts`) against hyparquet-writer's public
 * `ParquetWriter` given the same rows and row-group sizes in their natural JS form: DuckDB must read
 * both files to the same rows, row groups and chunk statistics (min, max, null count), and read ours
 * back exactly as we meant — every type (int64 with bigint cells beyond 2^53, double, boolean, string,
 * date, timestamp), nulls, dictionary-encoded columns of every type, statistics (with string bounds
 * cut to 16 bytes), chunks of several pages (the offset index), hostile text (lone surrogates,
 * characters above U+FFFF), and a part without rows. The bytes differ on purpose: ours are v1 data
 * pages of at most `PAGE_ROWS` rows, written as the rows arrive (parquet-chunk.ts, parquet-pages.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetMetadata, readOffsetIndex } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import SnappyJS from 'snappyjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCells } from '#core/export/cells';
import type { Cell } from '#core/export/flatten';
import type { ColumnDef } from '#core/export/model';
import { fieldKey } from '#core/export/model';
import { PARQUET_OPTIONS, ParquetEncoder, type ParquetType, schemaElement } from '#core/export/parquet';
import { PAGE_ROWS } from '#core/export/parquet-schema';
import { RowGroupBuffer } from '#core/export/rowgroup';
import { duckQuery, lit } from './duck';

const WINDOW = { start: '2026-11-16', end: '2026-11-22', timezone: 'UTC' };
const BIG = 2n ** 62n + 12345n; // beyond 2^53: only a bigint holds it exactly
const PLATFORMS = ['instagram', 'tiktok', 'youtube', null];

type Col = { name: string; type: ParquetType; role: ColumnDef['role'] };
const COLUMNS: Col[] = [
  { name: 'id', type: 'string', role: 'id' },
  { name: 'platform', type: 'string', role: 'id' },
  { name: 'published', type: 'timestamp', role: 'id' },
  { name: 'day', type: 'date', role: 'id' },
  { name: 'flag', type: 'boolean', role: 'id' },
  { name: 'window_start', type: 'date', role: 'window' },
  { name: 'likes', type: 'int64', role: 'metric' },
  { name: 'rate', type: 'double', role: 'metric' },
];

/** Row i as the API sends it (cells) and as a reader should see it (expected). */
function row(i: number) {
  const micros = 1_763_251_200_000_000n + BigInt(i) * 1_234_567n; // 2025-11-16T00:00:00Z + i × 1.234567 s
  const iso = new Date(Number(micros / 1000n))
    .toISOString()
    .replace('Z', `${String(micros % 1000n).padStart(3, '0')}Z`);
  const nul = i % 7 === 3;
  return {
    id: `p-${i}-${[...'ünï😀,"q"\n'].slice(0, i % 9).join('')}`,
    platform: PLATFORMS[i % 4] ?? null,
    published: nul ? null : iso,
    publishedMicros: nul ? null : micros,
    day: nul ? null : `2026-11-${String(10 + (i % 15)).padStart(2, '0')}`,
    flag: i % 5 === 0 ? null : i % 2 === 0,
    likes: i % 11 === 0 ? null : i % 13 === 0 ? BIG + BigInt(i) : i * 1_000_003 - 50_000,
    rate: i % 6 === 0 ? null : i / 7 - 3,
  };
}

const SIZES = [300, 1_000, 17];
const ROWS = Array.from({ length: SIZES.reduce((a, b) => a + b) }, (_, i) => row(i));

/** Our encoder, fed row group by row group through the row-group buffer (as the export does). */
function ours(): Uint8Array {
  return encodeOurs(COLUMNS, ROWS as unknown as Record<string, Cell>[], SIZES);
}

function encodeOurs(columns: Col[], rows: Record<string, Cell>[], sizes: number[]): Uint8Array {
  // as the column model defines them: fields keyed by their API path, metrics by name
  const defs = columns.map((c) => ({
    ...c,
    source:
      c.role === 'window'
        ? { kind: 'window', which: 'start' }
        : c.role === 'metric'
          ? { kind: 'metric', name: c.name }
          : { kind: 'field', path: [c.name] },
    key: c.role === 'metric' ? c.name : c.role === 'window' ? '' : fieldKey([c.name]),
  }));
  const enc = new ParquetEncoder(defs as unknown as ColumnDef[]);
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const size of sizes) {
    const group = new RowGroupBuffer();
    const slice = rows.slice(at, at + size);
    at += size;
    const cellsOf = (role: Col['role']) =>
      columns
        .filter((c) => c.role === role)
        .map((c): [string, Cell[]] => [
          role === 'metric' ? c.name : fieldKey([c.name]),
          slice.map((r) => r[c.name] ?? null),
        ]);
    // bigint cells arrive as the column model's INT64 values beyond 2^53
    group.append({ rows: size, fields: cellsOf('id'), metrics: cellsOf('metric') });
    chunks.push(...enc.group(new GroupCells(group, WINDOW)));
  }
  chunks.push(...enc.finish());
  return Buffer.concat(chunks);
}

/** The library's public writer, given the same rows in its natural input types. */
function reference(): Uint8Array {
  return encodeReference(
    COLUMNS,
    {
      id: ROWS.map((r) => r.id),
      platform: ROWS.map((r) => r.platform),
      published: ROWS.map((r) => r.publishedMicros),
      day: ROWS.map((r) => (r.day === null ? null : new Date(`${r.day}T00:00:00Z`))),
      flag: ROWS.map((r) => r.flag),
      window_start: ROWS.map(() => new Date(`${WINDOW.start}T00:00:00Z`)),
      likes: ROWS.map((r) => (r.likes === null ? null : BigInt(r.likes))),
      rate: ROWS.map((r) => r.rate),
    },
    SIZES,
  );
}

/** A string as UTF-8 carries it: each lone surrogate becomes U+FFFD. */
function wellFormed(text: string): string {
  return text.replace(/\p{Cs}/gu, '\ufffd');
}

/** DuckDB reads `ours` and `ref` to the same rows, and their metadata to the same chunks' rows and statistics. */
async function expectSameAsReference(ours: Uint8Array, ref: Uint8Array): Promise<void> {
  const a = join(dir, `ours-${Math.random()}.parquet`);
  const b = join(dir, `ref-${Math.random()}.parquet`);
  await writeFile(a, ours);
  await writeFile(b, ref);
  const rows = (f: string) => duckQuery(`SELECT * FROM read_parquet(${lit(f)})`);
  expect(await rows(a)).toEqual(await rows(b));
  const meta = (f: string) =>
    duckQuery(
      `SELECT row_group_id, row_group_num_rows, column_id, path_in_schema, type, num_values,
              stats_min_value, stats_max_value, stats_null_count
       FROM parquet_metadata(${lit(f)}) ORDER BY row_group_id, column_id`,
    );
  const ourMeta = await meta(a);
  expect(ourMeta.length).toBeGreaterThan(0);
  expect(ourMeta).toEqual(await meta(b));
}

function encodeReference(columns: Col[], data: Record<string, unknown[]>, sizes: number[]): Uint8Array {
  const out = new ByteWriter();
  const w = new ParquetWriter({
    writer: out,
    schema: [
      { name: 'root', num_children: columns.length },
      ...columns.map((c) => schemaElement(c.name, c.type)),
    ],
    ...PARQUET_OPTIONS,
    // the same Snappy as ours (snappyjs): the library's own compressor picks other matches on pages
    // over 64 KiB, so its bytes differ there while both decompress to the same page
    compressors: { SNAPPY: (b: Uint8Array) => SnappyJS.compress(b) },
  });
  void w.write({
    columnData: columns.map((c) => ({ name: c.name, data: data[c.name] as never })),
    rowGroupSize: sizes.length > 0 ? sizes : 1_000,
  });
  void w.finish();
  return out.getBytes();
}

let dir = '';
let file = '';
let bytes: Uint8Array;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'golden-'));
  file = join(dir, 'ours.parquet');
  bytes = ours();
  await writeFile(file, bytes);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Parquet part encoder', () => {
  it("reads back as hyparquet-writer's file of the same rows: rows, row groups, chunk statistics", async () => {
    await expectSameAsReference(bytes, reference());
  });

  it('reads back cell-identical with DuckDB: every type, bigint beyond 2^53, microsecond timestamps, nulls', async () => {
    const got = await duckQuery(
      `SELECT id, platform, epoch_us(published)::VARCHAR AS us, day::VARCHAR AS day, flag,
              window_start::VARCHAR AS ws, likes::VARCHAR AS likes, rate
       FROM read_parquet(${lit(file)})`,
    );
    expect(got).toHaveLength(ROWS.length);
    got.forEach((g, i) => {
      const r = ROWS[i];
      expect(g, `row ${i}`).toEqual({
        id: r?.id,
        platform: r?.platform,
        us: r?.publishedMicros === null ? null : String(r?.publishedMicros),
        day: r?.day,
        flag: r?.flag,
        ws: WINDOW.start,
        likes: r?.likes === null ? null : String(r?.likes),
        rate: r?.rate,
      });
    });
    const [types] = await duckQuery(
      `SELECT concat_ws(',', ${COLUMNS.map((c) => `typeof(${c.name})`).join(', ')}) AS t FROM read_parquet(${lit(file)}) LIMIT 1`,
    );
    expect(types?.t).toBe('VARCHAR,VARCHAR,TIMESTAMP WITH TIME ZONE,DATE,BOOLEAN,DATE,BIGINT,DOUBLE');
  });

  it('writes one row group per group, statistics on every column, a dictionary for low-cardinality strings', () => {
    const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const meta = parquetMetadata(buf);
    expect(meta.row_groups.map((g) => Number(g.num_rows))).toEqual(SIZES);
    const first = meta.row_groups[1]?.columns ?? [];
    const byName = new Map(first.map((c) => [c.meta_data?.path_in_schema.join('.'), c.meta_data]));
    expect(byName.get('platform')?.encodings).toContain('RLE_DICTIONARY');
    expect(byName.get('id')?.encodings).not.toContain('RLE_DICTIONARY');
    for (const c of COLUMNS) {
      const stats = byName.get(c.name)?.statistics;
      expect(stats?.null_count, c.name).toBeDefined();
      expect(stats?.max_value, c.name).toBeDefined();
    }
    expect(Number(byName.get('likes')?.statistics?.null_count)).toBe(
      ROWS.slice(300, 1300).filter((r) => r.likes === null).length,
    );
    const likes = ROWS.slice(300, 1300).flatMap((r) => (r.likes === null ? [] : [BigInt(r.likes)]));
    expect(byName.get('likes')?.statistics?.max_value).toBe(likes.reduce((a, b) => (b > a ? b : a)));
  });
});

/**
 * A second part, built to reach the encoder's other paths: captions long enough that one row group's
 * chunk takes several pages (so the file has an offset index), strings whose bounds are cut to 16 bytes
 * (a max rounded up past multi-byte characters), lone surrogates and characters above U+FFFF that
 * UTF-16 order would sort wrongly against U+E000–U+FFFF, dictionaries of int64, double and
 * timestamp values, -0, and a column that is null in every row. One difference is on purpose: where a
 * chunk holds both -0 and +0, the library's dictionary makes them one entry (a JS Map key), ours keeps
 * both, so DuckDB reads back the sign the API sent.
 */
describe('Parquet part encoder, the other paths', () => {
  const columns: Col[] = [
    { name: 'caption', type: 'string', role: 'id' },
    { name: 'tag', type: 'string', role: 'id' },
    { name: 'posted', type: 'timestamp', role: 'id' },
    { name: 'nothing', type: 'string', role: 'id' },
    { name: 'tier', type: 'int64', role: 'metric' },
    { name: 'score', type: 'double', role: 'metric' },
    { name: 'seen', type: 'boolean', role: 'metric' },
  ];
  const TAGS = [
    '\uffff-max',
    '\u{1F600}-emoji',
    '\ue000-private',
    'lone-\ud800',
    'x'.repeat(40),
    'ééééééééééé-cut',
  ];
  const rows = Array.from({ length: 3_100 }, (_, i) => ({
    caption: `${i}:${'caption ünï 😀 '.repeat(30 + (i % 5))}${i % 97 === 0 ? '\udc00' : ''}`,
    tag: i % 9 === 0 ? null : (TAGS[i % TAGS.length] as string),
    postedMicros: 1_763_251_200_000_000 + (i % 4) * 3_600_000_000,
    tier: i % 10 === 0 ? null : i % 3,
    score: i % 8 === 0 ? -0 : (i % 4) / 2 + 0.5,
    seen: i % 3 === 0,
  }));
  const sizes = [2_900, 200];
  const cells = rows.map((r) => ({
    caption: r.caption,
    tag: r.tag,
    posted: new Date(r.postedMicros / 1000).toISOString(),
    nothing: null,
    tier: r.tier,
    score: r.score,
    seen: r.seen,
  }));
  const reference = () =>
    encodeReference(
      columns,
      {
        caption: rows.map((r) => r.caption),
        tag: rows.map((r) => r.tag),
        posted: rows.map((r) => BigInt(r.postedMicros)),
        nothing: rows.map(() => null),
        tier: rows.map((r) => (r.tier === null ? null : BigInt(r.tier))),
        score: rows.map((r) => r.score),
        seen: rows.map((r) => r.seen),
      },
      sizes,
    );

  it("reads back as hyparquet-writer's file of the same rows, and uses every path it was built to reach", async () => {
    const got = encodeOurs(columns, cells, sizes);
    await expectSameAsReference(got, reference());
    const meta = parquetMetadata(
      got.buffer.slice(got.byteOffset, got.byteOffset + got.byteLength) as ArrayBuffer,
    );
    const first = new Map(meta.row_groups[0]?.columns.map((c) => [c.meta_data?.path_in_schema[0], c]));
    expect(first.get('caption')?.offset_index_length, 'several pages: an offset index').toBeGreaterThan(0);
    expect(first.get('caption')?.meta_data?.statistics?.is_max_value_exact).toBe(false);
    for (const name of ['tag', 'posted', 'tier', 'score'])
      expect(first.get(name)?.meta_data?.encodings, name).toContain('RLE_DICTIONARY');
    expect(first.get('nothing')?.meta_data?.statistics?.null_count).toBe(2_900n);
    expect(first.get('seen')?.meta_data?.encodings).toEqual(['PLAIN', 'RLE']);
    // the 2,900-row group: data pages of at most PAGE_ROWS rows in every column
    for (const [name, c] of first) {
      const pages = c.meta_data?.encoding_stats?.filter((s) => s.page_type === 'DATA_PAGE');
      expect(
        pages?.reduce((n, s) => n + s.count, 0),
        name,
      ).toBe(Math.ceil(2_900 / PAGE_ROWS));
    }
  });

  it('writes offset indexes that locate every data page of their chunks, in one run before the footer', () => {
    // three row groups, the first two with chunks of several pages: indexes of several groups
    const got = encodeOurs(columns, cells, [1_700, 1_200, 200]);
    const file = got.buffer.slice(got.byteOffset, got.byteOffset + got.byteLength) as ArrayBuffer;
    const meta = parquetMetadata(file);
    const view = new DataView(file);
    const footerAt = got.byteLength - 8 - view.getUint32(got.byteLength - 8, true);
    let next: number | undefined;
    let indexed = 0;
    for (const [g, group] of meta.row_groups.entries()) {
      for (const c of group.columns) {
        const m = c.meta_data;
        const name = `group ${g}, ${m?.path_in_schema[0]}`;
        const dataPages = m?.encoding_stats
          ?.filter((s) => s.page_type === 'DATA_PAGE')
          .reduce((n, s) => n + s.count, 0);
        if (dataPages === 1) {
          expect(c.offset_index_offset, name).toBeUndefined();
          continue;
        }
        indexed += 1;
        const at = Number(c.offset_index_offset);
        const reader = { view, offset: at };
        const { page_locations: pages } = readOffsetIndex(reader);
        expect(reader.offset - at, `${name}: its length`).toBe(c.offset_index_length);
        // the indexes follow one another, from the end of the last row group's chunks to the footer
        if (next !== undefined) expect(at, name).toBe(next);
        next = reader.offset;
        expect(pages, name).toHaveLength(dataPages as number);
        const chunkStart = Number(m?.dictionary_page_offset ?? m?.data_page_offset);
        expect(Number(pages[0]?.offset), name).toBe(Number(m?.data_page_offset));
        const last = pages.at(-1);
        expect(Number(last?.offset) + Number(last?.compressed_page_size), name).toBe(
          chunkStart + Number(m?.total_compressed_size),
        );
        pages.forEach((p, k) => {
          const after = pages[k + 1];
          if (after === undefined) return;
          expect(Number(p.offset) + p.compressed_page_size, `${name}, page ${k}`).toBe(Number(after.offset));
          expect(Number(after.first_row_index) - Number(p.first_row_index), `${name}, page ${k}`).toBe(
            PAGE_ROWS,
          );
        });
        expect(Number(pages[0]?.first_row_index), name).toBe(0);
      }
    }
    expect(indexed, 'chunks with an offset index').toBeGreaterThanOrEqual(2 * columns.length);
    expect(next, 'the last index ends where the footer starts').toBe(footerAt);
    const lastGroup = meta.row_groups.at(-1)?.columns.at(-1)?.meta_data;
    const firstIndex = meta.row_groups[0]?.columns.find((c) => c.offset_index_offset !== undefined);
    expect(Number(firstIndex?.offset_index_offset), 'the first index follows the last chunk').toBe(
      Number(lastGroup?.dictionary_page_offset ?? lastGroup?.data_page_offset) +
        Number(lastGroup?.total_compressed_size),
    );
  });

  it('reads back cell-identical with DuckDB (a lone surrogate as U+FFFD, as UTF-8 must carry it)', async () => {
    const path = join(dir, 'other.parquet');
    await writeFile(path, encodeOurs(columns, cells, sizes));
    const got = await duckQuery(
      `SELECT caption, tag, epoch_us(posted)::VARCHAR AS us, nothing, tier, score, seen FROM read_parquet(${lit(path)})`,
    );
    expect(got).toHaveLength(rows.length);
    got.forEach((g, i) => {
      const r = rows[i] as (typeof rows)[number];
      expect(g, `row ${i}`).toEqual({
        caption: wellFormed(r.caption),
        tag: r.tag === null ? null : wellFormed(r.tag),
        us: String(r.postedMicros),
        nothing: null,
        tier: r.tier === null ? null : String(r.tier),
        score: r.score,
        seen: r.seen,
      });
    });
  });

  it('keeps -0 and +0 apart in a dictionary column', async () => {
    const path = join(dir, 'zeros.parquet');
    const zeros = Array.from({ length: 400 }, (_, i) => ({ score: i % 2 === 0 ? -0 : 0 }));
    await writeFile(path, encodeOurs([{ name: 'score', type: 'double', role: 'metric' }], zeros, [400]));
    const got = await duckQuery(`SELECT score FROM read_parquet(${lit(path)})`);
    expect(got.map((g) => g.score)).toEqual(zeros.map((z) => z.score));
    const [meta] = await duckQuery(`SELECT encodings FROM parquet_metadata(${lit(path)})`);
    expect(String(meta?.encodings)).toContain('RLE_DICTIONARY');
  });

  it('a part without rows is the same file as the public writer writes', () => {
    // no row group, so no page: the header, the schema and the footer only
    const empty = encodeOurs(columns, [], []);
    expect(
      Buffer.from(empty).equals(
        Buffer.from(encodeReference(columns, Object.fromEntries(columns.map((c) => [c.name, []])), [])),
      ),
    ).toBe(true);
  });
});
