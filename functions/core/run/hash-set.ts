/**
 * A set of 53-bit hashes (integers 0 … 2^53 − 1) without a single JS object per entry, exact on all
 * 53 bits. A `Set<number>` of such hashes boxes every one of them (each above 2^31 is a heap object),
 * so remembering 1M row identities cost ~40 MB and young-generation GC.
 *
 * Up to 2^19 slots (262,144 hashes) each slot is the hash itself in a `Float64Array` (8 bytes), with
 * open addressing and linear probing, doubled at half load. From 2^20 slots on, a slot takes 5 bytes
 * (quotienting): a hash is split into its top 21 bits `hi` and its low 32 bits `lo`; the table of 2^k
 * slots stores `lo` (a `Uint32Array`) and one byte (a `Uint8Array`) holding the slot's distance from
 * the entry's home slot, plus the 21 − k bits of `hi` the home slot cannot carry. The home slot is the
 * top k bits of `hi`, mixed with `lo` (`home = top_k(hi) XOR mix_k(lo)`), so the full hash comes back
 * from the slot: `top_k(hi) = (slot − distance) XOR mix_k(lo)`. Nothing is lost: two hashes are equal in
 * the set exactly when all their 53 bits are.
 *
 * Memory (the guard's cap is 1M hashes, core/run/guards.ts): 8 MB (2^20 × 8 bytes) → 5 MB at
 * 262,145–524,288 hashes, 16 MB → 10 MB at 524,289–1M; while the table doubles the old and the new
 * are both alive: at the last doubling 8 + 16 = 24 MB → 5 + 10 = 15 MB.
 *
 * A distance that does not fit its byte (more than 126 slots at 2^20, 254 at 2^21) doubles the table
 * early, which costs only memory; at 2^21 slots, the largest, such a hash is not remembered (`add`
 * still answers true; `size` does not count it). With linear probing at half load a run of n slots
 * has a probability of about e^(−0.19 n) a slot: ~10⁻⁵ per 2^20-slot table, ~10⁻¹⁵ at 2^21 (where the
 * guard's 1M hashes stay below half load). The set holds up to ~2^20 hashes; past that the largest
 * table fills and more and more hashes are not remembered.
 */
const FIRST_CAPACITY = 1 << 12;
/** The largest table whose slots are whole hashes (8 bytes a slot). */
const LAST_FLOAT_BITS = 19;
/** The largest table: its home slot is all of `hi`, so the byte is all distance. */
const LAST_BITS = 21;
const TWO_32 = 2 ** 32;

export class HashSet53 {
  /** Each slot holds hash + 1 (0 = empty), exact in a double since hash + 1 ≤ 2^53; null once compact. */
  private slots: Float64Array | null = new Float64Array(FIRST_CAPACITY);
  private compact: CompactTable | null = null;
  size = 0;

  /** Whether `hash` is in the set. */
  has(hash: number): boolean {
    if (this.compact !== null) return this.compact.has(hash);
    const slots = this.slots as Float64Array;
    return slots[findFloat(slots, hash)] !== 0;
  }

  /** Adds `hash`; false when it was already there. */
  add(hash: number): boolean {
    if (this.compact !== null) return this.addCompact(hash);
    const slots = this.slots as Float64Array;
    const at = findFloat(slots, hash);
    if (slots[at] !== 0) return false;
    slots[at] = hash + 1;
    this.size += 1;
    if (this.size * 2 > slots.length) this.grow();
    return true;
  }

  /** The table's bytes (for tests and the docs' figures). */
  get bytes(): number {
    return this.compact?.bytes ?? (this.slots as Float64Array).byteLength;
  }

  private addCompact(hash: number): boolean {
    const table = this.compact as CompactTable;
    const put = table.add(hash);
    if (put === ALREADY) return false;
    if (put === ADDED) {
      this.size += 1;
      if (this.size * 2 > table.capacity && table.bits < LAST_BITS) this.grow();
      return true;
    }
    // TOO_FAR: a table that can double takes it there; the largest one does not remember it
    if (table.bits === LAST_BITS) return true;
    this.grow();
    return this.addCompact(hash);
  }

  /** Doubles the table (from 2^20 slots on, into the compact form). */
  private grow(): void {
    const slots = this.slots;
    if (slots !== null && slots.length * 2 <= 2 ** LAST_FLOAT_BITS) {
      const grown = new Float64Array(slots.length * 2);
      for (const v of slots) if (v !== 0) grown[findFloat(grown, v - 1)] = v;
      this.slots = grown;
      return;
    }
    const from = slots === null ? (this.compact as CompactTable) : null;
    const each = (visit: (hash: number) => void) => {
      if (from !== null) from.forEach(visit);
      else for (const v of slots as Float64Array) if (v !== 0) visit(v - 1);
    };
    let bits = from === null ? Math.log2((slots as Float64Array).length) + 1 : from.bits + 1;
    for (;;) {
      const next = new CompactTable(bits);
      let kept = 0;
      let tooFar = false;
      each((h) => {
        if (next.add(h) === ADDED) kept += 1;
        else tooFar = true;
      });
      // a run too long for its byte: double again (the largest table keeps what fits)
      if (tooFar && bits < LAST_BITS) {
        bits += 1;
        continue;
      }
      this.compact = next;
      this.slots = null;
      this.size = kept;
      return;
    }
  }
}

/** The slot holding `hash`, or the empty slot where it belongs (whole-hash slots). */
function findFloat(slots: Float64Array, hash: number): number {
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

const ADDED = 0;
const ALREADY = 1;
const TOO_FAR = 2;

/** 2^bits slots of 5 bytes (bits 20 or 21): `lo` and a byte of distance + the bits of `hi` left over. */
class CompactTable {
  readonly capacity: number;
  private readonly lo: Uint32Array;
  /** (leftover bits of hi) << distanceBits | (distance + 1); 0 = empty. */
  private readonly meta: Uint8Array;
  private readonly mask: number;
  /** Bits of `hi` the home slot does not carry (21 − bits), kept in the byte's top bits. */
  private readonly spare: number;
  private readonly distanceBits: number;
  private readonly maxDistance: number;

  constructor(readonly bits: number) {
    this.capacity = 2 ** bits;
    this.lo = new Uint32Array(this.capacity);
    this.meta = new Uint8Array(this.capacity);
    this.mask = this.capacity - 1;
    this.spare = LAST_BITS - bits;
    this.distanceBits = 8 - this.spare;
    this.maxDistance = 2 ** this.distanceBits - 2;
  }

  get bytes(): number {
    return this.lo.byteLength + this.meta.byteLength;
  }

  /** `lo` mixed into `bits` bits (Fibonacci hashing), so the home slot depends on all 53 bits. */
  private mix(lo: number): number {
    return Math.imul(lo, 0x9e3779b1) >>> (32 - this.bits);
  }

  /** Where `hash` is (ALREADY), or adds it (ADDED), or its distance would not fit (TOO_FAR). */
  add(hash: number): number {
    return this.probe(hash, true);
  }

  has(hash: number): boolean {
    return this.probe(hash, false) === ALREADY;
  }

  /**
   * Walks `hash`'s probe run: ALREADY at its slot; at the first empty slot ADDED (storing it there
   * when `insert`); TOO_FAR past the farthest distance an entry can sit from its home slot.
   */
  private probe(hash: number, insert: boolean): number {
    const hi = Math.floor(hash / TWO_32);
    const lo = hash >>> 0;
    const tag = (hi & ((1 << this.spare) - 1)) << this.distanceBits;
    let i = ((hi >>> this.spare) ^ this.mix(lo)) & this.mask;
    for (let d = 1; d <= this.maxDistance + 1; d += 1, i = (i + 1) & this.mask) {
      const m = this.meta[i] as number;
      if (m === 0) {
        if (insert) {
          this.lo[i] = lo;
          this.meta[i] = tag | d;
        }
        return ADDED;
      }
      if (m === (tag | d) && this.lo[i] === lo) return ALREADY;
    }
    return TOO_FAR;
  }

  /** Every hash in the table, rebuilt from its slot. */
  forEach(visit: (hash: number) => void): void {
    const distanceMask = (1 << this.distanceBits) - 1;
    for (let i = 0; i < this.capacity; i += 1) {
      const m = this.meta[i] as number;
      if (m === 0) continue;
      const lo = this.lo[i] as number;
      const home = (i - ((m & distanceMask) - 1)) & this.mask;
      const hi = (((home ^ this.mix(lo)) & this.mask) << this.spare) | (m >>> this.distanceBits);
      visit(hi * TWO_32 + lo);
    }
  }
}
