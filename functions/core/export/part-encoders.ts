/** The registry of part encoders: which class encodes each format (the interface is `part-encoder.ts`). */
import { CsvEncoder } from './csv-part';
import type { Format } from './formats';
import { JsonlEncoder } from './jsonl';
import type { ColumnDef } from './model';
import { ParquetEncoder } from './parquet';
import type { EncoderOptions, PartEncoder } from './part-encoder';

/** One entry per format of the registry (formats.ts). */
export const PART_ENCODERS: Readonly<
  Record<Format, (columns: readonly ColumnDef[], options: EncoderOptions) => PartEncoder>
> = {
  parquet: (columns) => new ParquetEncoder(columns),
  csv: (columns, options) => new CsvEncoder(columns, options.formulaGuard),
  jsonl: (columns) => new JsonlEncoder(columns),
};
