/**
 * The encoders of a part's formats, one per format. An encoder is synchronous and stateful: it turns
 * each row group into the bytes to append to the part's object, and gives the last bytes (a footer,
 * or the header of a part without rows) at the end. They run in the encoder worker (`encoder.ts`),
 * never on the thread that fetches pages. A new format is one entry in `PART_ENCODERS`.
 */
import type { Window } from '../manifest';
import type { ColumnDef } from './columns';
import { CsvEncoder } from './csv-part';
import type { Format } from './keys';
import { ParquetEncoder } from './parquet';
import type { RowGroupBuffer } from './rowgroup';

export interface PartEncoder {
  /** The bytes of one row group (with the file's header first, where the format has one). */
  group(group: RowGroupBuffer, window: Window): Uint8Array[];
  /** The part's last bytes. */
  finish(): Uint8Array[];
}

export const PART_ENCODERS: Readonly<Record<Format, (columns: readonly ColumnDef[]) => PartEncoder>> = {
  parquet: (columns) => new ParquetEncoder(columns),
  csv: (columns) => new CsvEncoder(columns),
};
