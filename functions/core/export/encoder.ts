/**
 * The boundary between the thread that fetches pages and the encoding. A report's writer opens one
 * `EncoderStream`: it appends flattened rows (`ColumnBatch`es) as pages arrive, and asks for the
 * buffered row group to be encoded into a part; the answer is the bytes to append to each format's
 * object, which the writer streams to the sink. The encoding itself happens in `EncoderHost`, which
 * holds each stream's row group and each open part's format encoders.
 *
 * Two implementations: the worker pool (`#adapters/encoder-pool`, what the CLI and the Export Lambda
 * use: the host runs in a `worker_threads` worker, so encoding never blocks the event loop) and
 * `inlineEncoder()` below (the host on the calling thread, for tests and as the fallback when no
 * encoder is passed). Both answer a stream's calls in order.
 */
import type { Window } from '../manifest';
import { GroupCells } from './cells';
import type { ColumnDef } from './columns';
import type { Format } from './keys';
import { PART_ENCODERS, type PartEncoder } from './part-encoder';
import { type ColumnBatch, RowGroupBuffer } from './rowgroup';

/** What the encoder needs to know about a part (sent with every call; it opens the part on first use). */
export interface PartSpec {
  readonly id: number;
  readonly columns: readonly ColumnDef[];
  readonly formats: readonly Format[];
  readonly window: Window;
  /** The CSV formula guard (`output.csvFormulaGuard`); off when absent. */
  readonly formulaGuard?: boolean;
}

/** Bytes to append to each format's object, in order. */
export type EncodedBytes = Partial<Record<Format, Uint8Array[]>>;

export interface EncoderStream {
  /** Adds rows to the row group being buffered. Resolves when more may be sent (back-pressure). */
  append(batch: ColumnBatch): Promise<void>;
  /** Encodes the buffered row group into the part and empties the buffer. */
  encode(part: PartSpec): Promise<EncodedBytes>;
  /** The part's last bytes (footer, or the header of an empty part); the part is forgotten. */
  finish(part: PartSpec): Promise<EncodedBytes>;
  /** Forgets the stream's rows and parts (after the last call, or to abandon it). Never throws. */
  close(): void;
}

export interface Encoder {
  open(): EncoderStream;
}

export type EncoderRequest =
  | { readonly op: 'append'; readonly stream: number; readonly batch: ColumnBatch }
  | { readonly op: 'encode' | 'finish'; readonly stream: number; readonly part: PartSpec }
  | { readonly op: 'close'; readonly stream: number };

interface StreamState {
  group: RowGroupBuffer;
  readonly parts: Map<number, Map<Format, PartEncoder>>;
}

/** Executes encoder requests; holds every stream's buffered rows and open parts. */
export class EncoderHost {
  private readonly streams = new Map<number, StreamState>();

  handle(req: EncoderRequest): EncodedBytes | undefined {
    if (req.op === 'close') {
      this.streams.delete(req.stream);
      return undefined;
    }
    const state = this.state(req.stream);
    if (req.op === 'append') {
      state.group.append(req.batch);
      return undefined;
    }
    const encoders = this.part(state, req.part);
    const out: EncodedBytes = {};
    if (req.op === 'encode') {
      const cells = new GroupCells(state.group, req.part.window);
      state.group = new RowGroupBuffer();
      for (const [format, enc] of encoders) out[format] = enc.group(cells);
    } else {
      for (const [format, enc] of encoders) out[format] = enc.finish();
      state.parts.delete(req.part.id);
    }
    return out;
  }

  private state(stream: number): StreamState {
    let state = this.streams.get(stream);
    if (state === undefined) {
      state = { group: new RowGroupBuffer(), parts: new Map() };
      this.streams.set(stream, state);
    }
    return state;
  }

  private part(state: StreamState, spec: PartSpec): Map<Format, PartEncoder> {
    let encoders = state.parts.get(spec.id);
    if (encoders === undefined) {
      const options = { formulaGuard: spec.formulaGuard ?? false };
      encoders = new Map(spec.formats.map((f) => [f, PART_ENCODERS[f](spec.columns, options)]));
      state.parts.set(spec.id, encoders);
    }
    return encoders;
  }
}

/** The host on the calling thread: same results, but encoding blocks this thread's event loop. */
export function inlineEncoder(): Encoder {
  const host = new EncoderHost();
  let streams = 0;
  const run = async (req: EncoderRequest): Promise<EncodedBytes> => host.handle(req) ?? {};
  return {
    open(): EncoderStream {
      streams += 1;
      const stream = streams;
      return {
        append: async (batch) => {
          await run({ op: 'append', stream, batch });
        },
        encode: (part) => run({ op: 'encode', stream, part }),
        finish: (part) => run({ op: 'finish', stream, part }),
        close: () => {
          host.handle({ op: 'close', stream });
        },
      };
    },
  };
}
