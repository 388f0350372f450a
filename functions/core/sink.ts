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

export interface Sink {
  /** A human-readable location: `s3://bucket/key` or an absolute file path. */
  locate(key: string): string;
  openWriter(key: string, contentType: string): ObjectWriter;
  putObject(key: string, body: string | Uint8Array, contentType: string): Promise<WrittenObject>;
  /**
   * Creates the object only when no object has this key (S3 `If-None-Match: *`, an exclusive create
   * in a folder): null when one already does. The compare-and-swap of versioned objects.
   */
  putIfAbsent(key: string, body: string | Uint8Array, contentType: string): Promise<WrittenObject | null>;
  /** The object's bytes, or null when it does not exist. */
  getObject(key: string): Promise<Uint8Array | null>;
  /** Every key under the prefix (recursive), sorted. */
  list(prefix: string): Promise<string[]>;
  deleteObjects(keys: readonly string[]): Promise<void>;
}
