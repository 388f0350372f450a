/**
 * What a report writer carries from one export step to the next: parts written, rows, type breaks,
 * totals and the top rows so far. The run's checkpoint (`run/checkpoint.ts`) adds the paging and the
 * guards around it; the workflow treats both as opaque JSON.
 */
import * as z from 'zod/mini';
import { keyedRecord } from '../keyed-record';
import { ManifestFileSchema } from '../manifest';
import { SummaryRowSchema } from './top';

export const WriterStateSchema = z.object({
  nextPart: z.int().check(z.nonnegative()),
  files: z.array(ManifestFileSchema),
  rows: z.int().check(z.nonnegative()),
  /** `CODE column` → how many values broke the column's type so far (report warnings). */
  breaks: keyedRecord(z.int().check(z.nonnegative())),
  totals: keyedRecord(z.object({ mantissa: z.string(), scale: z.int().check(z.nonnegative()) })),
  top: z.array(z.object({ value: z.number(), seq: z.int(), row: SummaryRowSchema })),
});
export type WriterState = z.infer<typeof WriterStateSchema>;
