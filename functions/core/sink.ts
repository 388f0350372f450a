/**
 * Where exports are written: a local folder (`--out`) or S3 (`--bucket`), with the same key layout.
 * Implemented in `functions/adapters/` (fs-sink, s3-sink). Keys are always `/`-separated and relative.
 */
export interface WrittenObject {
  readonly key: string;
  readonly bytes: number;
  readonly sha256: string;
}

/** One object being streamed. `write` resolves when the chunk may be reused (back-pressure). */
export interface ObjectWriter {
  write(chunk: Uint8Array): Promise<void>;
  /** Completes the object (multipart complete / rename into place) and reports what was written. */
  close(): Promise<WrittenObject>;
  /** Abandons the object: aborts the multipart upload / removes the temporary file. Never throws. */
  abort(): Promise<void>;
}

/** An object's bytes and its entity tag (S3's ETag; a folder uses the sha256 of the bytes). */
export interface TaggedObject {
  readonly body: Uint8Array;
  readonly etag: string;
}

/**
 * A conditional write: `{ ifNoneMatch: '*' }` creates the object only when it does not exist;
 * `{ ifMatch: etag }` replaces it only while it is still that version (compare-and-swap).
 */
export type WriteCondition = { readonly ifNoneMatch: '*' } | { readonly ifMatch: string };

export interface Sink {
  /** A human-readable location: `s3://bucket/key` or an absolute file path. */
  locate(key: string): string;
  openWriter(key: string, contentType: string): ObjectWriter;
  putObject(key: string, body: string | Uint8Array, contentType: string): Promise<WrittenObject>;
  /** The object's bytes, or null when it does not exist. */
  getObject(key: string): Promise<Uint8Array | null>;
  /** Every key under the prefix (recursive), sorted. */
  list(prefix: string): Promise<string[]>;
  deleteObjects(keys: readonly string[]): Promise<void>;
  /** The object with its entity tag, or null when it does not exist. */
  getTagged(key: string): Promise<TaggedObject | null>;
  /** Writes only when the condition holds; the new entity tag, or null when it did not hold. */
  putIf(key: string, body: string, contentType: string, condition: WriteCondition): Promise<string | null>;
  /** Moves an object to another key, replacing what is there (rename / server-side copy + delete). */
  moveObject(from: string, to: string): Promise<void>;
  /**
   * Checks, before a run starts, that objects can be written here at all (the folder sink: the folder
   * and its temporary area); throws USAGE naming the place and the reason. Absent: nothing to check.
   */
  ready?(): Promise<void>;
}
