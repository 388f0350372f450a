/**
 * Reads an export back with readers that are not the exporter's (not a test file): Parquet with
 * hyparquet (strings decoded as strict UTF-8, INT64 as bigint, DATE as days, TIMESTAMP as microseconds),
 * CSV with DuckDB (every cell as text, RFC 4180), JSON Lines with a lossless JSON reader and DuckDB's
 * `read_json` (which must accept the file). Each file's bytes and sha256 are checked against the
 * manifest's entry, and its rows against `files[].rows`. Cells come back as canonical text per column
 * type (`canonical`), so three formats can be compared cell for cell.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { DuckDBConnection } from '@duckdb/node-api';
import { parquetMetadata, parquetRead } from 'hyparquet';
import { lit, readCsvSql } from '../../core/export/duck';
import { doubleText, type Exact, isNum, isObj, parseExact } from '../exact-json';

export type ColumnType = 'string' | 'int64' | 'double' | 'date' | 'timestamp' | 'boolean';

export interface FileEntry {
  readonly format: string;
  readonly key: string;
  readonly bytes: number;
  readonly rows: number;
  readonly sha256: string;
  readonly columns?: number;
}

/** One file read back: its column names (in file order) and rows of canonical cells. */
export interface ReadFile {
  readonly names: readonly string[];
  readonly rows: readonly (readonly Canon[])[];
}

/** A cell as canonical text: numbers as exact decimals or a double's shortest text, dates as text, timestamps as µs. */
export type Canon = string | null;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads `file` under `root`; fails (throws) when its size or sha256 differs from the entry. */
export async function readExportFile(
  root: string,
  file: FileEntry,
  typeOf: (name: string) => ColumnType,
  duck: DuckDBConnection,
): Promise<ReadFile> {
  const path = join(root, file.key);
  const body = await readFile(path);
  if (body.byteLength !== file.bytes)
    throw new Error(`${file.key}: ${body.byteLength} bytes, manifest says ${file.bytes}`);
  const sha = createHash('sha256').update(body).digest('hex');
  if (sha !== file.sha256) throw new Error(`${file.key}: sha256 ${sha}, manifest says ${file.sha256}`);
  const read =
    file.format === 'parquet'
      ? await readParquet(body, typeOf, path, duck)
      : file.format === 'csv'
        ? await readCsv(path, typeOf, duck)
        : await readJsonl(body, typeOf, path, duck);
  if (read.rows.length !== file.rows)
    throw new Error(`${file.key}: ${read.rows.length} rows, manifest says ${file.rows}`);
  return read;
}

async function readParquet(
  body: Buffer,
  typeOf: (n: string) => ColumnType,
  path: string,
  duck: DuckDBConnection,
) {
  const buffer = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer;
  const names = parquetMetadata(buffer)
    .schema.slice(1)
    .map((s) => s.name);
  const rows = await new Promise<unknown[][]>((resolve, reject) => {
    parquetRead({
      file: buffer,
      rowFormat: 'array',
      parsers: {
        stringFromBytes: (bytes: Uint8Array) => bytes && strictUtf8.decode(bytes),
        dateFromDays: (days: number) => new Date(days * 86_400_000).toISOString().slice(0, 10),
        timestampFromMicroseconds: (micros: bigint) => micros.toString(),
      },
      onComplete: resolve,
    }).catch(reject);
  });
  // DuckDB must read the same file to the same row count
  const count = await duck.runAndReadAll(
    `SELECT count(*)::INTEGER AS n FROM read_parquet(${lit(path)}, hive_partitioning = false)`,
  );
  const n = count.getRowsJson()[0]?.[0];
  if (n !== rows.length) throw new Error(`${path}: DuckDB reads ${String(n)} rows, hyparquet ${rows.length}`);
  return { names, rows: rows.map((r) => names.map((name, i) => canonical(typeOf(name), r[i]))) };
}

async function readCsv(path: string, typeOf: (n: string) => ColumnType, duck: DuckDBConnection) {
  // the header as a row of text (DuckDB renames a blank or repeated header name), and the path's dt=
  // folder is not a column of the file
  const sql = readCsvSql([path])
    .replace(/header=true/, 'header=false')
    .replace(/\)$/, ', hive_partitioning = false)');
  const reader = await duck.runAndReadAll(`SELECT * FROM ${sql}`);
  const [header = [], ...lines] = reader.getRowsJson();
  const names = header.map((h) => String(h ?? ''));
  const rows = lines.map((r) => names.map((name, i) => canonical(typeOf(name), r[i] ?? null)));
  return { names, rows };
}

async function readJsonl(
  body: Buffer,
  typeOf: (n: string) => ColumnType,
  path: string,
  duck: DuckDBConnection,
) {
  const text = strictUtf8.decode(gunzipSync(body));
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const parsed = lines.map((line) => parseExact(line));
  const names = parsed[0] !== undefined && isObj(parsed[0]) ? parsed[0].entries.map(([k]) => k) : [];
  const rows = parsed.map((row) => {
    if (!isObj(row)) throw new Error(`${path}: a line is not an object`);
    const keys = row.entries.map(([k]) => k);
    if (JSON.stringify(keys) !== JSON.stringify(names)) throw new Error(`${path}: lines differ in keys`);
    return row.entries.map(([k, v]) => canonical(typeOf(k), v));
  });
  if (lines.length > 0) {
    // DuckDB must accept the whole file as JSON
    const count = await duck.runAndReadAll(
      `SELECT count(*)::INTEGER AS n FROM read_json(${lit(path)}, format = 'newline_delimited', records = false)`,
    );
    const n = count.getRowsJson()[0]?.[0];
    if (n !== rows.length)
      throw new Error(`${path}: DuckDB reads ${String(n)} lines, ${rows.length} written`);
  }
  return { names, rows };
}

/** A reader's value of a column of `type` as canonical text (see `Canon`). */
export function canonical(type: ColumnType, value: unknown): Canon {
  if (value === null || value === undefined) return null;
  const v: unknown =
    typeof value === 'object' && isNum(value as Exact) ? (value as { num: string }).num : value;
  const text = typeof v === 'number' ? doubleText(v) : String(v);
  switch (type) {
    case 'int64':
      return BigInt(text).toString();
    case 'double':
      return doubleText(Number(text));
    case 'timestamp':
      return typeof v === 'string' && /T/.test(v) ? microsOf(v) : text;
    default:
      return text;
  }
}

/** Microseconds since the epoch of an ISO date-time with a zone (`…T10:00:00.123456+01:00`). */
export function microsOf(iso: string): string {
  const m = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:\d{2})$/.exec(iso);
  if (m === null) throw new Error(`${iso} is not a zoned date-time`);
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) throw new Error(`${iso} is not a date-time`);
  return (BigInt(ms) * 1000n + BigInt((m[2] ?? '').padEnd(6, '0'))).toString();
}
