/**
 * Sets of 53-bit hashes (integers 0 … 2^53 − 1) without a single JS object per entry, exact on all
 * 53 bits. A `Set<number>` of such hashes boxes every one of them (each above 2^31 is a heap object),
 * so remembering 1M row identities cost ~40 MB and young-generation GC.
 *
 * `HashSet53`: each slot is the hash + 1 in a `Float64Array` (8 bytes; 0 = empty), open addressing
 * with linear probing, doubled at half load.
 *
 * `RecentHashes`: the hashes of the last rows, in memory that does not grow with the rows (the
 * `ROWS_REPEATED` guard, core/run/guards.ts). Two generations of `HashSet53`, each of at most
 * `window` hashes: when the newer is full, the older is emptied (its table kept) and becomes the
 * newer. A hash is found while it is among the last `window` to `2 × window` hashes added. At the
 * guard's window of 131,072 the two tables are 2^18 slots each: 4 MiB in all, reached after ~200k
 * rows and never more (5 MiB at the moment the newer doubles into its last size).
 */
const FIRST_CAPACITY = 1 << 12;

export class HashSet53 {
  /** Each slot holds hash + 1 (0 = empty), exact in a double since hash + 1 ≤ 2^53. */
  private slots = new Float64Array(FIRST_CAPACITY);
  size = 0;

  /** Whether `hash` is in the set. */
  has(hash: number): boolean {
    return this.slots[find(this.slots, hash)] !== 0;
  }

  /** Adds `hash`; false when it was already there. */
  add(hash: number): boolean {
    const slots = this.slots;
    const at = find(slots, hash);
    if (slots[at] !== 0) return false;
    slots[at] = hash + 1;
    this.size += 1;
    if (this.size * 2 > slots.length) this.grow();
    return true;
  }

  /** Empties the set, keeping its table (no allocation when it fills again to the same size). */
  clear(): void {
    this.slots.fill(0);
    this.size = 0;
  }

  /** The table's bytes (for tests and the docs' figures). */
  get bytes(): number {
    return this.slots.byteLength;
  }

  private grow(): void {
    const grown = new Float64Array(this.slots.length * 2);
    for (const v of this.slots) if (v !== 0) grown[find(grown, v - 1)] = v;
    this.slots = grown;
  }
}

/** The slot holding `hash`, or the empty slot where it belongs. */
function find(slots: Float64Array, hash: number): number {
  const mask = slots.length - 1;
  const stored = hash + 1;
  // the low 32 bits (exact for an integer below 2^53) pick the first slot
  let i = (hash >>> 0) & mask;
  for (;;) {
    const v = slots[i];
    if (v === 0 || v === stored) return i;
    i = (i + 1) & mask;
  }
}

export class RecentHashes {
  private newer = new HashSet53();
  private older = new HashSet53();

  /** `window`: hashes per generation (a power of two keeps each table at 2 × window slots). */
  constructor(readonly window: number) {}

  /**
   * Adds `hash` as the newest; false when it is among the hashes remembered (at least the last
   * `window` added, at most the last 2 × `window`).
   */
  add(hash: number): boolean {
    const seen = this.older.has(hash);
    if (!this.newer.add(hash)) return false;
    if (this.newer.size >= this.window) {
      const emptied = this.older;
      emptied.clear();
      this.older = this.newer;
      this.newer = emptied;
    }
    return !seen;
  }

  /** Both tables' bytes. */
  get bytes(): number {
    return this.newer.bytes + this.older.bytes;
  }
}
