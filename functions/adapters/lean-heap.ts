/**
 * How far V8 lets the main thread's old generation grow past what survived its last full collection,
 * for a CLI export (docs/performance.md, "Memory of one export through the CLI").
 *
 * During an export the main thread's live heap stays at ~20 MB (modules, config, one report's state),
 * but the pages read ahead outlive two scavenges and are promoted, to die in the old generation. V8's
 * own growing factor (up to 4× the live size on a heap this small) let that garbage pile up to ~60 MB
 * before a full collection (`--trace-gc`, 300k rows). Growing by 30 % collects it at ~30 MB: peak RSS
 * of the whole process ~−7 MiB at 30k rows, −40 MiB at 300k, −52 MiB at 3M, for ~3–6 % more CPU.
 *
 * `--heap-growing-percent` is read at every full collection, so setting it after Node has started
 * works (unlike `--max-old-space-size` or `--max-semi-space-size`, read once when the heap is made),
 * and it covers every way the CLI is started (its shebang, `node bin/…`, `npm run demo`), which a
 * `node` flag in the shebang would not. V8 flags are per process: the encoder worker gets it too,
 * which changes little there (its heap is capped, `WORKER_HEAP_MB`).
 */
import { setFlagsFromString } from 'node:v8';

/** Old generation limit after a full collection: its live size + this percentage. */
export const HEAP_GROWING_PERCENT = 30;

let applied = false;

/** Applies `HEAP_GROWING_PERCENT` to this process (once; later calls do nothing). */
export function leanHeap(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
