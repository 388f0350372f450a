/** A CSV part: header when opened, then each row group's lines, streamed to the sink as UTF-8. */
import type { Window } from '../manifest';
import type { ObjectWriter } from '../sink';
import { columnCells } from './cells';
import type { ColumnDef } from './columns';
import { csvHeader, csvLines } from './csv';
import type { PartEncoder, PartEncoderFactory } from './formats';
import type { RowGroupBuffer } from './rowgroup';

const encoder = new TextEncoder();
/** Rows per write to the sink: small slices keep the event loop (and page fetches) moving. */
const SLICE_ROWS = 2_000;

export const openCsvPart: PartEncoderFactory = (columns, out, options) =>
  new CsvPart(columns, out, options.formulaGuard);

export class CsvPart implements PartEncoder {
  private written = 0;
  private headerDone = false;

  constructor(
    private readonly columns: readonly ColumnDef[],
    private readonly out: ObjectWriter,
    private readonly guard = false,
  ) {}

  get bytes(): number {
    return this.written;
  }

  async writeGroup(group: RowGroupBuffer, window: Window): Promise<void> {
    const cols = this.columns.map((c) => columnCells(group, c, window));
    for (let from = 0; from < group.rows; from += SLICE_ROWS) {
      const rows = csvLines(cols, from, Math.min(group.rows, from + SLICE_ROWS), this.guard);
      const text = this.headerDone ? rows : csvHeader(this.columns, this.guard) + rows;
      this.headerDone = true;
      await this.send(text);
    }
  }

  /** A part with no rows still gets its header, so every CSV file is self-describing. */
  async finish(): Promise<void> {
    if (!this.headerDone) await this.send(csvHeader(this.columns, this.guard));
    this.headerDone = true;
  }

  private async send(text: string): Promise<void> {
    if (text === '') return;
    const bytes = encoder.encode(text);
    this.written += bytes.byteLength;
    await this.out.write(bytes);
  }
}
