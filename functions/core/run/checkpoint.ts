/**
 * The export checkpoint's own shape (the workflow treats it as opaque JSON): everything a later step
 * needs to carry on exactly where the last one stopped.
 */
import * as z from 'zod/mini';
import { ManifestFileSchema } from '../manifest';
import { GuardStateSchema } from './guards';

export const CheckpointStateSchema = z.object({
  version: z.literal(1),
  /** Cursor of the next page to fetch (never null: a finished export returns `done`). */
  cursor: z.string(),
  nextPart: z.int().check(z.nonnegative()),
  files: z.array(ManifestFileSchema),
  pages: z.int().check(z.nonnegative()),
  rows: z.int().check(z.nonnegative()),
  /** `CODE column` → how many values broke the column's type so far (report warnings). */
  breaks: z.record(z.string(), z.int().check(z.nonnegative())),
  totals: z.record(z.string(), z.object({ mantissa: z.string(), scale: z.int().check(z.nonnegative()) })),
  /** Running sums and counts of the metrics never summed (absent in older checkpoints). */
  means: z.optional(
    z.record(z.string(), z.object({ sum: z.number(), rows: z.int().check(z.nonnegative()) })),
  ),
  /** The silent-loss guards' counts so far (absent in checkpoints written before they existed). */
  guards: z.optional(GuardStateSchema),
  top: z.array(
    z.object({
      value: z.number(),
      seq: z.int(),
      row: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    }),
  ),
});
export type CheckpointState = z.infer<typeof CheckpointStateSchema>;
