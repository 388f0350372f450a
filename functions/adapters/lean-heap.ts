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
 * The 70 % starts `SHORT_MS` after the process started, with one full collection then, so the
 * garbage of the first second is not carried into the rest of the export. An export that ends
 * before it (16k rows on the bench's machine) runs with V8's own growth: it has one full collection
 * instead of three, ~3 % less wall time and 15–40 ms less CPU, for ~10 MiB more at its peak. A long
 * one peaks 0–2 MiB higher in the median, 3–7 MiB in the highest (300k and 3M rows, interleaved;
 * on Node 22 ~7 MiB in both).
 *
 * `--heap-growing-percent` is read at every full collection, so setting it after Node has started
 * works (unlike `--max-old-space-size` or `--max-semi-space-size`, read once when the heap is made),
 * and it covers every way the CLI is started (its shebang, `node bin/…`, `npm run demo`), which a
 * `node` flag in the shebang would not. V8 flags are per process: the encoder worker gets it too,
 * which changes little there (its heap is capped, `WORKER_HEAP_MB`).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Old generation limit after a full collection: its live size + this percentage. */
export const HEAP_GROWING_PERCENT = 70;

/** How long from the process start V8 keeps its own growth, ms. */
export const SHORT_MS = 1_000;

let applied = false;

/**
 * One full collection of this thread's heap, now. Node has no API for it without `--expose-gc` at
 * start; the flag is set only while a context is made to hand out V8's `gc`, then unset, so no other
 * context gets one.
 */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  gc();
}

/**
 * Applies `HEAP_GROWING_PERCENT` to this process from `SHORT_MS` after its start, with a full
 * collection at that moment; at once (no collection) when called later than that. Once: later calls
 * do nothing. Its timer never keeps the process alive.
 */
export function leanHeap(): void {
  if (applied) return;
  applied = true;
  const lean = () => setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const wait = SHORT_MS - performance.now();
  if (wait <= 0) {
    lean();
    return;
  }
  setTimeout(() => {
    lean();
    collectGarbage();
  }, wait).unref();
}
