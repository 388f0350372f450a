/**
 * What a report writer carries from one export step to the next: parts written, rows, type breaks,
 * totals and the top rows so far. The run's checkpoint (`run/checkpoint.ts`) adds the paging and the
 * guards around it; the workflow treats both as opaque JSON.
 */
import * as z from 'zod/mini';
import { keyedRecord } from '../keyed-record';
import { ManifestFileSchema } from '../manifest';
import { ColumnModelSchema } from './model';
import { SummaryRowSchema } from './top';

export const WriterStateSchema = z.object({
  nextPart: z.int().check(z.nonnegative()),
  files: z.array(ManifestFileSchema),
  rows: z.int().check(z.nonnegative()),
  /** `CODE column` → how many values broke the column's type so far (report warnings). */
  breaks: keyedRecord(z.int().check(z.nonnegative())),
  totals: keyedRecord(z.object({ mantissa: z.string(), scale: z.int().check(z.nonnegative()) })),
  /** Running sums and counts of the metrics never summed (absent in older checkpoints). */
  means: z.optional(keyedRecord(z.object({ sum: z.number(), rows: z.int().check(z.nonnegative()) }))),
  top: z.array(z.object({ value: z.number(), seq: z.int(), row: SummaryRowSchema })),
  /** The report's model as the export has grown it so far (stored only at commit). */
  model: z.optional(ColumnModelSchema),
});
export type WriterState = z.infer<typeof WriterStateSchema>;
