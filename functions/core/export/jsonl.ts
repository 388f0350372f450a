/**
 * JSON Lines, gzip-compressed (`part-00000.jsonl.gz`): one JSON object per row, keys the column names
 * in model order, values as the column holds them (the same cells as CSV and Parquet): numbers as
 * JSON numbers (integers beyond 2^53 with every digit), dates and date-times as the API's text, null
 * for null. Each row group is one gzip member; a file of several members is one valid gzip stream
 * (RFC 1952), which gzip readers decompress as a whole.
 */
import { gzipSync } from 'node:zlib';
import type { Cell } from './flatten';
import type { ColumnDef } from './model';
import type { ColumnCells, PartEncoder } from './part-encoder';
import { numberText } from './values';

/** Rows per gzip member: bounds the size of the intermediate strings. */
const SLICE_ROWS = 5_000;

/**
 * One value as JSON: numbers as `numberText` writes them (CSV's text: `-0`, `12.0` in a double
 * column, every digit of a bigint); strings are well-formed by then (`fitted`), so `JSON.stringify`
 * never writes a lone-surrogate escape that strict JSON readers (DuckDB, pyarrow) refuse.
 */
function jsonCell(value: Cell, double: boolean): string {
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'bigint') return numberText(value, double);
  return JSON.stringify(value);
}

export class JsonlEncoder implements PartEncoder {
  private readonly keys: readonly string[];
  private readonly doubles: readonly boolean[];
  private wrote = false;

  constructor(private readonly columns: readonly ColumnDef[]) {
    this.keys = columns.map((c) => `${JSON.stringify(c.name)}:`);
    this.doubles = columns.map((c) => c.type === 'double');
  }

  group(group: ColumnCells): Uint8Array[] {
    const cols = this.columns.map((c) => group.of(c));
    const out: Uint8Array[] = [];
    for (let from = 0; from < group.rows; from += SLICE_ROWS) {
      const to = Math.min(group.rows, from + SLICE_ROWS);
      const lines: string[] = [];
      for (let r = from; r < to; r += 1) {
        const fields = cols.map(
          (cells, c) => `${this.keys[c]}${jsonCell(cells[r] ?? null, this.doubles[c] === true)}`,
        );
        lines.push(`{${fields.join(',')}}\n`);
      }
      out.push(new Uint8Array(gzipSync(lines.join(''))));
      this.wrote = true;
    }
    return out;
  }

  /** A part without rows is one empty gzip member, so every file is a valid gzip stream. */
  finish(): Uint8Array[] {
    return this.wrote ? [] : [new Uint8Array(gzipSync(''))];
  }
}
