/**
 * Rewriting a staged part to the model at commit (docs/export.md "Schema evolution"): a part written
 * before the model grew lacks the later columns; at commit it is read back and written again with
 * every column of the committed model, in its order (a column the part lacks is null in every row),
 * so every part of a partition carries the same columns. One part at a time, each format from its own
 * file (CSV and JSON Lines as text, field for field, so their text stays exactly as written; Parquet
 * row group by row group through the same encoder), to the same staged key.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ManifestFile, Window } from '../manifest';
import type { Sink } from '../sink';
import { csvHeader } from './csv';
import type { Cell } from './flatten';
import { FORMATS } from './formats';
import { type ColumnDef, type ColumnModel, columnDefs } from './model';
import { columnIdentity, columnsByName } from './model-merge';
import { PART_ENCODERS } from './part-encoders';
import { fitted } from './values';

export interface PartColumns {
  /** The model the part was written with (its first `file.columns` columns). */
  readonly from: ColumnModel;
  /** The model at commit. */
  readonly to: ColumnModel;
}

/** Whether the part already carries exactly the committed model's columns. */
export function carriesModel(file: ManifestFile, models: PartColumns): boolean {
  const count = file.columns ?? models.from.columns.length;
  if (count !== models.to.columns.length) return false;
  return models.from.columns.slice(0, count).every((c, i) => {
    const t = models.to.columns[i];
    return t !== undefined && t.name === c.name && t.type === c.type;
  });
}

/** Rewrites one staged part to the committed model; returns its new manifest entry. */
export async function rewritePart(
  sink: Sink,
  file: ManifestFile,
  models: PartColumns,
  window: Window,
  formulaGuard: boolean,
): Promise<ManifestFile> {
  const body = await sink.getObject(file.key);
  if (body === null) throw new Error(`staged part ${file.key} is missing`);
  const from = columnDefs(models.from).slice(0, file.columns ?? models.from.columns.length);
  const to = columnDefs(models.to);
  const source = sourceIndexes(models, from.length);
  const chunks =
    file.format === 'csv'
      ? [csvRewrite(body, source, to, formulaGuard)]
      : file.format === 'jsonl'
        ? jsonlRewrite(body, from, to, source)
        : await parquetRewrite(body, from, to, source, window);
  const out = sink.openWriter(file.key, FORMATS[file.format].contentType);
  try {
    for (const chunk of chunks) await out.write(chunk);
  } catch (err: unknown) {
    await out.abort();
    throw err;
  }
  const written = await out.close();
  return { ...file, bytes: written.bytes, sha256: written.sha256, columns: to.length };
}

/** For each column of the committed model, its index in the part (-1: the part lacks it). */
function sourceIndexes(models: PartColumns, count: number): number[] {
  const fromByName = columnsByName(models.from);
  const toByName = columnsByName(models.to);
  const at = new Map(models.from.columns.slice(0, count).map((c, i) => [columnIdentity(c, fromByName), i]));
  return models.to.columns.map((c) => at.get(columnIdentity(c, toByName)) ?? -1);
}

const encoder = new TextEncoder();

/** CSV: each record's fields as written (quoted or not), placed under the committed header. */
function csvRewrite(
  body: Uint8Array,
  source: readonly number[],
  to: readonly ColumnDef[],
  guard: boolean,
): Uint8Array {
  const records = csvRecords(new TextDecoder().decode(body));
  const lines = [csvHeader(to, guard)];
  for (const fields of records.slice(1))
    lines.push(`${source.map((i) => (i < 0 ? '' : (fields[i] ?? ''))).join(',')}\r\n`);
  return encoder.encode(lines.join(''));
}

/** RFC 4180 records as our writer writes them (CRLF), each field's text kept as written. */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let i = 0;
  while (i < text.length) {
    let end = i;
    if (text[i] === '"') {
      end += 1;
      for (;;) {
        const q = text.indexOf('"', end);
        if (q < 0) throw new Error('a CSV part ends inside a quoted field');
        if (text[q + 1] === '"') end = q + 2;
        else {
          end = q + 1;
          break;
        }
      }
    } else {
      while (end < text.length && text[end] !== ',' && text[end] !== '\r') end += 1;
    }
    fields.push(text.slice(i, end));
    if (text[end] === ',') i = end + 1;
    else {
      records.push(fields);
      fields = [];
      i = end + 2; // CRLF
    }
  }
  return records;
}

/** Rows per gzip member, as the JSON Lines encoder writes them. */
const JSONL_SLICE = 5_000;

/** JSON Lines: each object's values as written, under the committed model's keys. */
function jsonlRewrite(
  body: Uint8Array,
  from: readonly ColumnDef[],
  to: readonly ColumnDef[],
  source: readonly number[],
): Uint8Array[] {
  const lines = new TextDecoder().decode(gunzipSync(body)).split('\n');
  const keys = to.map((c) => `${JSON.stringify(c.name)}:`);
  const out: Uint8Array[] = [];
  let slice: string[] = [];
  for (const line of lines) {
    if (line === '') continue;
    const values = jsonValues(line, from.length);
    slice.push(`{${keys.map((k, c) => `${k}${values[source[c] ?? -1] ?? 'null'}`).join(',')}}\n`);
    if (slice.length >= JSONL_SLICE) {
      out.push(new Uint8Array(gzipSync(slice.join(''))));
      slice = [];
    }
  }
  if (slice.length > 0 || out.length === 0) out.push(new Uint8Array(gzipSync(slice.join(''))));
  return out;
}

/** The value texts of one flat JSON object line as our encoder writes it (scalars only), in key order. */
function jsonValues(line: string, count: number): string[] {
  const values: string[] = [];
  let i = 1;
  while (values.length < count && i < line.length) {
    i = stringEnd(line, i) + 1; // the key, then ':'
    const start = i;
    const end = line[i] === '"' ? stringEnd(line, i) : scalarEnd(line, i);
    values.push(line.slice(start, end));
    i = end + 1; // ',' or '}'
  }
  return values;
}

/** The index just after the JSON string that starts (with its quote) at `i`. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  return j + 1;
}

function scalarEnd(text: string, i: number): number {
  let j = i;
  while (j < text.length && text[j] !== ',' && text[j] !== '}') j += 1;
  return j;
}

/** Parquet: each row group read back (dates and timestamps as the text the encoder reads) and encoded again. */
async function parquetRewrite(
  body: Uint8Array,
  from: readonly ColumnDef[],
  to: readonly ColumnDef[],
  source: readonly number[],
  window: Window,
): Promise<Uint8Array[]> {
  const file = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer;
  // the reader is loaded only when a part is rewritten (the model grew mid-run): not at every start
  const { parquetMetadata, parquetRead } = await import('hyparquet');
  const metadata = parquetMetadata(file);
  const enc = PART_ENCODERS.parquet(to, { formulaGuard: false });
  const out: Uint8Array[] = [];
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rows = Number(group.num_rows);
    const read = await readRows(parquetRead, file, from, rowStart, rowStart + rows);
    rowStart += rows;
    const cells = new Map<ColumnDef, readonly Cell[]>();
    to.forEach((c, i) => {
      const at = source[i] ?? -1;
      const sourceType = from[at]?.type;
      cells.set(
        c,
        c.role === 'window'
          ? new Array<Cell>(rows).fill(
              c.source.kind === 'window' && c.source.which === 'start' ? window.start : window.end,
            )
          : read.map((r) => {
              const v = at < 0 ? null : ((r[at] ?? null) as Cell);
              return sourceType === c.type ? v : fitted(c.type, v);
            }),
      );
    });
    out.push(...enc.group({ rows, of: (c) => cells.get(c) ?? new Array<Cell>(rows).fill(null) }));
  }
  out.push(...enc.finish());
  return out;
}

function readRows(
  parquetRead: typeof import('hyparquet').parquetRead,
  file: ArrayBuffer,
  from: readonly ColumnDef[],
  rowStart: number,
  rowEnd: number,
): Promise<unknown[][]> {
  return new Promise((resolve, reject) => {
    parquetRead({
      file,
      columns: from.map((c) => c.name),
      rowStart,
      rowEnd,
      parsers: {
        dateFromDays: (days: number) => new Date(days * 86_400_000).toISOString().slice(0, 10),
        timestampFromMicroseconds: microsText,
      },
      onComplete: (rows: unknown[][]) => resolve(rows),
    }).catch(reject);
  });
}

/** Epoch microseconds as an ISO date-time in UTC with all six fraction digits (exact for the encoder). */
function microsText(micros: bigint): string {
  let ms = micros / 1000n;
  if (micros < 0n && ms * 1000n !== micros) ms -= 1n;
  const rest = micros - ms * 1000n;
  return `${new Date(Number(ms)).toISOString().slice(0, -1)}${rest.toString().padStart(3, '0')}Z`;
}
