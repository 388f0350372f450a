/**
 * Where the HTTP adapters read response bodies into: buffers lent from a small pool, one answer at a
 * time, and given back by the transport once `#core/api/body` has decoded them
 * (`HttpAnswer.release`; the decoded text is a copy). A fresh page-sized buffer per page — joining a
 * page's ~10 socket chunks — is freed only when V8 collects it, and kept glibc's heap fragmented over
 * a long export (docs/performance.md, "Memory from 300k to 3M rows"); a lent one is filled again by
 * the next page. A buffer never given back (an error before decoding) is left to the garbage collector.
 */

/** Bodies past this size are read into a buffer of their own, never kept for the next answer. */
const LARGEST_KEPT_BYTES = 4 * 1024 * 1024;
/** A body of unknown length starts in this much (and doubles as it grows); sizes round up to it. */
const STEP_BYTES = 64 * 1024;

/** The pool of one `Http`: at most `keep` spare buffers (one per connection), none over 4 MiB. */
export class BodyBuffers {
  readonly #spare: Buffer[] = [];
  constructor(readonly keep: number) {}

  /** A buffer of at least `bytes`: a spare one when large enough, else a new one. */
  take(bytes: number): Buffer {
    const spare = this.#spare.pop();
    if (spare !== undefined && spare.length >= bytes) return spare;
    return Buffer.allocUnsafeSlow(Math.ceil(Math.max(bytes, 1) / STEP_BYTES) * STEP_BYTES);
  }

  /** `held` (its first `used` bytes kept) in a buffer with room for `more` bytes after them. */
  grow(held: Buffer, used: number, more: number): Buffer {
    if (used + more <= held.length) return held;
    const larger = this.take(Math.max(held.length * 2, used + more));
    held.copy(larger, 0, 0, used);
    return larger;
  }

  give(buffer: Buffer): void {
    if (buffer.length <= LARGEST_KEPT_BYTES && this.#spare.length < this.keep) this.#spare.push(buffer);
  }

  /** A body to read into: sized by its `content-length` when it has a usable one. */
  body(contentLength: string | null | undefined): LentBody {
    return new LentBody(this, contentLength);
  }
}

/** One answer's body as it arrives, in a buffer of the pool. */
export class LentBody {
  #held: Buffer;
  #bytes = 0;

  constructor(
    private readonly buffers: BodyBuffers,
    contentLength: string | null | undefined,
  ) {
    const length = Number(contentLength ?? Number.NaN);
    this.#held = buffers.take(Number.isSafeInteger(length) && length > 0 ? length : STEP_BYTES);
  }

  /** Appends `chunk`; false (nothing appended) when it would take the body past `maxBytes`. */
  append(chunk: Uint8Array, maxBytes: number | undefined): boolean {
    if (maxBytes !== undefined && this.#bytes + chunk.byteLength > maxBytes) return false;
    this.#held = this.buffers.grow(this.#held, this.#bytes, chunk.byteLength);
    this.#held.set(chunk, this.#bytes);
    this.#bytes += chunk.byteLength;
    return true;
  }

  /** The bytes, and the `release` that gives their buffer back: they must not be read after it. */
  lend(): { body: Buffer; release: () => void } {
    let lent: Buffer | undefined = this.#held;
    const release = () => {
      if (lent !== undefined) this.buffers.give(lent);
      lent = undefined;
    };
    return { body: this.#held.subarray(0, this.#bytes), release };
  }
}
