/**
 * The export checkpoint's own shape (the workflow treats it as opaque JSON): everything a later step
 * needs to carry on exactly where the last one stopped.
 */
import * as z from 'zod/mini';
import { WriterStateSchema } from '../export/writer-state';
import { GuardStateSchema } from './guards';

export const CheckpointStateSchema = z.extend(WriterStateSchema, {
  version: z.literal(1),
  /** Cursor of the next page to fetch (never null: a finished export returns `done`). */
  cursor: z.string(),
  pages: z.int().check(z.nonnegative()),
  /** The silent-loss guards' counts so far (absent in checkpoints written before they existed). */
  guards: z.optional(GuardStateSchema),
});
export type CheckpointState = z.infer<typeof CheckpointStateSchema>;
