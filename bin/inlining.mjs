/**
 * Limits how much TurboFan inlines into each function it optimizes, for the CLI's exports
 * (docs/performance.md, "How much V8 inlines").
 *
 * Most exports are short: a 16k-row export runs ~1.3 s, and V8's optimizing compiler spends a large
 * part of it compiling. Its background threads used ~0.7 s of CPU at 16k rows (per-thread, read from
 * `/proc/self/task`), on the second of two cores, which the API (or on the bench, its simulator) also
 * needs. The encoder's hot functions (page writers, statistics, CSV bytes, Snappy) are optimized, meet a
 * column of another type, are deoptimized and optimized again, several times each in the first second,
 * and each compile inlines their callees anew. With inlining capped at 100 bytes of bytecode per
 * optimized function (V8's default: 920; functions of ≤ 27 bytes are inlined regardless), measured
 * through the CLI, interleaved with DuckDB on the bench's simulator, 8 runs each at 16k rows: CPU
 * 2.04 → 1.53 s, wall 1.52 → 1.28 s (median); at 300k rows CPU 12.9 → 12.1 s, wall within the noise.
 *
 * V8 reads the limit at each compile, so setting it here — before the bundle is loaded, for the
 * process and its workers — is the same as the `node` flag, which a shebang could not pass.
 */
import { setFlagsFromString } from 'node:v8';

/** Bytecode bytes TurboFan may inline into one optimized function (V8's default: 920). */
export const INLINED_BYTECODE_CUMULATIVE = 100;

export function limitInlining() {
  setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${INLINED_BYTECODE_CUMULATIVE}`);
}
