/** The Parquet entry of the format registry: a part is a `ParquetPart` (parquet.ts). */
import type { PartEncoderFactory } from './formats';
import { ParquetPart } from './parquet';

export const openParquetPart: PartEncoderFactory = (columns, out) => new ParquetPart(columns, out);
