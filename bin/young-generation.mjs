/**
 * Caps the CLI main thread's young generation during an export: 2 × 4 MB semi-spaces for its first
 * seconds, 2 × 8 MB after (docs/performance.md, "Memory of one export through the CLI").
 *
 * V8 grows the young generation from 1 MB to 2 × 16 MB as the pages read ahead survive scavenges, and
 * that 32 MB stays resident for the whole export: at 30k rows a sixth of the peak. Its maximum
 * (`--max-semi-space-size`) is read once, when Node makes the heap, so it could only be a `node` flag
 * in the shebang (missing `node bin/…` and `npm run demo`). What V8 reads at every growth is
 * `--semi-space-growth-factor`: this module watches the main thread's new space from the process start
 * and sets the factor to 1 at the cap, 2 below it. Each new isolate (the encoder worker) puts the
 * factor back to 2, so the check goes on every few milliseconds; the encoder pool starts its worker's
 * young generation at its full size (`--min-semi-space-size`, functions/adapters/encoder-pool.ts), so
 * the worker does not depend on the factor.
 *
 * Why two caps (measured through the shebang, interleaved, one report, loaded machine): 4 MB keeps a
 * 30k-row export (~1.4 s) at 161–175 MiB against 180–191 uncapped, at no measurable cost in time
 * (8 MB: 174–187); held through a 300k-row export its extra scavenges cost ~6 % of wall time, while
 * 8 MB costs none measurable and still takes ~10 MiB off (194–199 MiB against 204–210). Lifting the cap
 * instead (the factor back to 2) made 300k rows 10 MiB worse than never capping.
 *
 * On Node 26 `space_size` counts only the semi-spaces' committed pages, so after a scavenge the check
 * sees the space below the cap and lets it double: it holds on Node 20 to 24, not on 26. Holding it
 * there (a scratch build) moved the peak within the spread between runs, so it is left as it is
 * (docs/performance.md, "The CLI on Node 22, 24 and 26").
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** Each semi-space's cap for the first `SHORT_MS` of the process, and after it, MB. */
export const SHORT_SEMI_MB = 4;
export const LONG_SEMI_MB = 8;
const SHORT_MS = 2000;
/** How often the new space is checked, ms (a growth needs several scavenges: tens of ms at least). */
const CHECK_MS = 5;

/** Starts the check; its timer never keeps the process alive. */
export function capYoungGeneration() {
  const started = performance.now();
  let capped = false;
  const timer = setInterval(() => {
    const semiMb = performance.now() - started < SHORT_MS ? SHORT_SEMI_MB : LONG_SEMI_MB;
    const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    if (space === undefined) return;
    const atCap = space.space_size >= 2 * semiMb * 1024 * 1024;
    // set again while at the cap: a new isolate puts the factor back to 2
    if (atCap || capped) setFlagsFromString(`--semi-space-growth-factor=${atCap ? 1 : 2}`);
    capped = atCap;
  }, CHECK_MS);
  timer.unref();
}
