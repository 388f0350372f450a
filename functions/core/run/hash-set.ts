/**
 * A set of 53-bit hashes (integers 0 … 2^53 − 1) in one `Float64Array`: open addressing with linear
 * probing, doubled at half load. A `Set<number>` of such hashes boxes every one of them (each above
 * 2^31 is a heap object), so remembering 1M row identities cost ~40 MB and young-generation GC;
 * here it is 8–16 bytes an entry and no object at all.
 */
const FIRST_CAPACITY = 1 << 12;

export class HashSet53 {
  /** Each slot holds hash + 1 (0 = empty), exact in a double since hash + 1 ≤ 2^53. */
  private slots = new Float64Array(FIRST_CAPACITY);
  size = 0;

  /** Whether `hash` is in the set. */
  has(hash: number): boolean {
    return this.slots[this.find(this.slots, hash)] !== 0;
  }

  /** Adds `hash`; false when it was already there. */
  add(hash: number): boolean {
    const at = this.find(this.slots, hash);
    if (this.slots[at] !== 0) return false;
    this.slots[at] = hash + 1;
    this.size += 1;
    if (this.size * 2 > this.slots.length) this.grow();
    return true;
  }

  /** The slot holding `hash`, or the empty slot where it belongs. */
  private find(slots: Float64Array, hash: number): number {
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

  private grow(): void {
    const old = this.slots;
    const slots = new Float64Array(old.length * 2);
    for (const v of old) if (v !== 0) slots[this.find(slots, v - 1)] = v;
    this.slots = slots;
  }
}
