/**
 * JSON Lines, gzip-compressed (`part-00000.jsonl.gz`): one JSON object per row, keys the column names
 * in model order, values as the column holds them (the same cells as CSV and Parquet): numbers as
 * JSON numbers (integers beyond 2^53 with every digit), dates and date-times as the API's text, null
 * for null. Registered in formats.ts; streamed through gzip to the sink.
 */
import { createGzip, type Gzip } from 'node:zlib';
import type { Window } from '../manifest';
import type { ObjectWriter } from '../sink';
import { columnCells } from './cells';
import type { ColumnDef } from './columns';
import type { Cell } from './flatten';
import type { PartEncoder, PartEncoderFactory } from './formats';
import type { RowGroupBuffer } from './rowgroup';

/** Rows per gzip write: small slices keep the event loop (and page fetches) moving. */
const SLICE_ROWS = 2_000;

export const openJsonlPart: PartEncoderFactory = (columns, out) => new JsonlPart(columns, out);

function jsonCell(value: Cell): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

export class JsonlPart implements PartEncoder {
  private readonly gzip: Gzip;
  private readonly keys: readonly string[];
  private written = 0;
  /** Every compressed chunk goes to the sink in order; the chain's failure surfaces on the next await. */
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly columns: readonly ColumnDef[],
    out: ObjectWriter,
  ) {
    this.keys = columns.map((c) => `${JSON.stringify(c.name)}:`);
    this.gzip = createGzip();
    this.gzip.on('data', (chunk: Buffer) => {
      this.written += chunk.byteLength;
      this.sending = this.sending.then(() => out.write(chunk));
    });
  }

  get bytes(): number {
    return this.written;
  }

  async writeGroup(group: RowGroupBuffer, window: Window): Promise<void> {
    const cols = this.columns.map((c) => columnCells(group, c, window));
    for (let from = 0; from < group.rows; from += SLICE_ROWS) {
      const to = Math.min(group.rows, from + SLICE_ROWS);
      const lines: string[] = [];
      for (let r = from; r < to; r += 1) {
        const fields = cols.map((cells, c) => `${this.keys[c]}${jsonCell(cells[r] ?? null)}`);
        lines.push(`{${fields.join(',')}}\n`);
      }
      if (!this.gzip.write(lines.join(''))) await new Promise((resolve) => this.gzip.once('drain', resolve));
      await this.sending;
    }
  }

  async finish(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.gzip.once('error', reject);
      this.gzip.once('end', resolve);
      this.gzip.end();
    });
    await this.sending;
  }
}
