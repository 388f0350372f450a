/** A CSV part: header when opened, then each row group's lines, streamed to the sink as UTF-8. */
import type { Window } from '../manifest';
import type { ObjectWriter } from '../sink';
import type { ColumnDef } from './columns';
import { csvHeader, csvRows } from './csv';
import type { RowGroupBuffer } from './rowgroup';

const encoder = new TextEncoder();

export class CsvPart {
  private written = 0;
  private headerDone = false;

  constructor(
    private readonly columns: readonly ColumnDef[],
    private readonly out: ObjectWriter,
  ) {}

  get bytes(): number {
    return this.written;
  }

  async writeGroup(group: RowGroupBuffer, window: Window): Promise<void> {
    const text = (this.headerDone ? '' : csvHeader(this.columns)) + csvRows(this.columns, group, window);
    this.headerDone = true;
    await this.send(text);
  }

  /** A part with no rows still gets its header, so every CSV file is self-describing. */
  async finish(): Promise<void> {
    if (!this.headerDone) await this.send(csvHeader(this.columns));
    this.headerDone = true;
  }

  private async send(text: string): Promise<void> {
    if (text === '') return;
    const bytes = encoder.encode(text);
    this.written += bytes.byteLength;
    await this.out.write(bytes);
  }
}
