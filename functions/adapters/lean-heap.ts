/**
 * How far V8 lets the main thread's old generation grow past what survived its last full collection,
 * for a CLI export (docs/performance.md, "Memory of one export through the CLI").
 *
 * During an export the main thread's live heap stays at ~20 MB (modules, config, one report's state),
 * but the pages read ahead outlive two scavenges and are promoted, to die in the old generation. V8's
 * own growing factor (up to 4× the live size on a heap this small) let that garbage pile up to ~60 MB
 * before a full collection (`--trace-gc`, 300k rows). Growing by 70 % collects it at ~35 MB. Measured
 * alone (no young-generation cap), 300k rows: 30 % −40 MiB for ~+6 % CPU; 70 % −35 MiB for ~0–3 %.
 * With the young-generation cap (bin/young-generation.mjs), against 30 %: 300k 192–200 MiB against
 * 187–198, 3M 219 against 227 (one run each), 30k 169–173 against 158–163, wall median −2.5 %.
 *
 * `--heap-growing-percent` is read at every full collection, so setting it after Node has started
 * works (unlike `--max-old-space-size` or `--max-semi-space-size`, read once when the heap is made),
 * and it covers every way the CLI is started (its shebang, `node bin/…`, `npm run demo`), which a
 * `node` flag in the shebang would not. V8 flags are per process: the encoder worker gets it too,
 * which changes little there (its heap is capped, `WORKER_HEAP_MB`).
 */
import { setFlagsFromString } from 'node:v8';

/** Old generation limit after a full collection: its live size + this percentage. */
export const HEAP_GROWING_PERCENT = 70;

let applied = false;

/** Applies `HEAP_GROWING_PERCENT` to this process (once; later calls do nothing). */
export function leanHeap(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
