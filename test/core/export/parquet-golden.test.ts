/**
 * Golden test of the Parquet part encoder: a part written row group by row group (as the export writes
 * it) must be byte-identical to what hyparquet-writer's public `ParquetWriter` writes for the same rows
 * and row-group sizes given the values in their natural JS form, and DuckDB must read back exactly the
 * rows we meant — every type (int64 with bigint cells beyond 2^53, double, boolean, string, date,
 * timestamp), nulls, a dictionary-encoded column and statistics.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCells } from '#core/export/cells';
import type { ColumnDef } from '#core/export/columns';
import type { Cell } from '#core/export/flatten';
import { fieldKey } from '#core/export/model';
import { PARQUET_OPTIONS, ParquetEncoder, type ParquetType, schemaElement } from '#core/export/parquet';
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
  // as the column model defines them: fields keyed by their API path, metrics by name
  const defs = COLUMNS.map((c) => ({
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
  for (const size of SIZES) {
    const group = new RowGroupBuffer();
    const slice = ROWS.slice(at, at + size);
    at += size;
    const fields: [string, Cell[]][] = (['id', 'platform', 'published', 'day', 'flag'] as const).map((n) => [
      fieldKey([n]),
      slice.map((r) => r[n]),
    ]);
    // bigint cells arrive as the column model's INT64 values beyond 2^53
    const likes = slice.map((r) => r.likes) as Cell[];
    group.append({
      rows: size,
      fields,
      metrics: [
        ['likes', likes],
        ['rate', slice.map((r) => r.rate)],
      ],
    });
    chunks.push(...enc.group(new GroupCells(group, WINDOW)));
  }
  chunks.push(...enc.finish());
  return Buffer.concat(chunks);
}

/** The library's public writer, given the same rows in its natural input types. */
function reference(): Uint8Array {
  const out = new ByteWriter();
  const w = new ParquetWriter({
    writer: out,
    schema: [
      { name: 'root', num_children: COLUMNS.length },
      ...COLUMNS.map((c) => schemaElement(c.name, c.type)),
    ],
    ...PARQUET_OPTIONS,
  });
  const data: Record<string, unknown[]> = {
    id: ROWS.map((r) => r.id),
    platform: ROWS.map((r) => r.platform),
    published: ROWS.map((r) => r.publishedMicros),
    day: ROWS.map((r) => (r.day === null ? null : new Date(`${r.day}T00:00:00Z`))),
    flag: ROWS.map((r) => r.flag),
    window_start: ROWS.map(() => new Date(`${WINDOW.start}T00:00:00Z`)),
    likes: ROWS.map((r) => (r.likes === null ? null : BigInt(r.likes))),
    rate: ROWS.map((r) => r.rate),
  };
  void w.write({
    columnData: COLUMNS.map((c) => ({ name: c.name, data: data[c.name] as never })),
    rowGroupSize: SIZES,
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
  it("is byte-identical to hyparquet-writer's public ParquetWriter for the same rows and row groups", () => {
    expect(Buffer.from(bytes).equals(Buffer.from(reference()))).toBe(true);
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
