/**
 * The boundary between the thread that fetches pages and the encoding. A report's writer opens one
 * `EncoderStream`: it appends flattened rows (`ColumnBatch`es) as pages arrive — each answered with
 * its CSV lines when sent with its part — and asks for the buffered row group to be encoded into the
 * part; the answers are the bytes to append to each format's object, which the writer streams to the
 * sink. The encoding itself happens in `EncoderHost`, which holds each stream's row group (its
 * Parquet column chunks, or its slices for a format encoded whole) and each open part's encoders.
 *
 * Two implementations: the worker pool (`#adapters/encoder-pool`: the host runs in a `worker_threads`
 * worker, so encoding never blocks the event loop; what the CLI and the Export Lambda use on more than
 * two cores) and `inlineEncoder()` below (the host on the calling thread: the pool's choice on two
 * cores or fewer, and the fallback when no encoder is passed). Both answer a stream's calls in order.
 */
import type { Window } from '../manifest';
import { GroupCells } from './cells';
import { csvBytes, doubleColumns } from './csv-part';
import type { Cell } from './flatten';
import type { Format } from './formats';
import type { ColumnDef } from './model';
import { ColumnChunk } from './parquet-chunk';
import type { GroupAhead, PartEncoder } from './part-encoder';
import { PART_ENCODERS } from './part-encoders';
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

/**
 * What the writer already knows about the part a slice goes into when it sends the slice: its columns
 * (the model then), window, formats and CSV guard. With it the host encodes the slice's CSV lines and
 * writes its Parquet pages (`parquet-chunk.ts`) at once, while the row group fills, instead of
 * all of it after the group's last page. The writer writes a group's slices into their part before
 * the model grows, so a group is never encoded for other columns than its slices were (the host
 * refuses to).
 */
export interface SliceSpec {
  readonly columns: readonly ColumnDef[];
  readonly window: Window;
  readonly formulaGuard: boolean;
  readonly formats: readonly Format[];
}

/** Bytes to append to each format's object, in order. */
export type EncodedBytes = Partial<Record<Format, Uint8Array[]>>;

/** A slice sent: its bytes to append now (the CSV lines of a slice sent with its part), once encoded. */
export interface SentSlice {
  readonly bytes: Promise<EncodedBytes>;
}

export interface EncoderStream {
  /**
   * Adds rows to the row group being buffered; given `spec`, takes them ahead (`SliceSpec`), and
   * given the `part` the group goes into too, answers their CSV lines at once (after the part's
   * header if first), so they are written as they come instead of held until the group ends.
   * Resolves when more may be sent (back-pressure).
   */
  append(batch: ColumnBatch, spec?: SliceSpec, part?: PartSpec): Promise<SentSlice>;
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
  | {
      readonly op: 'append';
      readonly stream: number;
      readonly batch: ColumnBatch;
      readonly spec?: SliceSpec;
      readonly part?: PartSpec;
    }
  | { readonly op: 'encode' | 'finish'; readonly stream: number; readonly part: PartSpec }
  | { readonly op: 'close'; readonly stream: number };

interface StreamState {
  /**
   * The group's slices that must be kept to encode it whole: those of a format not taken ahead
   * (JSON Lines), or of a group whose slices could not be (no spec). A slice taken ahead for every
   * format of its spec is not kept, so the row group's cells do not stay in memory until its end.
   * Made into a `RowGroupBuffer` only when the group is encoded whole.
   */
  batches: ColumnBatch[];
  rows: number;
  /** Rows of the group whose CSV lines were answered at once, and the part they went into. */
  streamed: number;
  streamedPart?: number;
  /**
   * Every slice of the group taken ahead as it arrived (CSV lines, Parquet columns), and the spec
   * they were taken for (none before the group's first slice); null once a slice could not be.
   */
  ahead: (GroupAhead & { spec?: SliceSpec }) | null;
  readonly parts: Map<number, Map<Format, PartEncoder>>;
}

const noAhead = (): GroupAhead & { spec?: SliceSpec } => ({ csv: [], parquet: null });

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
      const out = this.takeAhead(state, req.batch, req.spec, req.part);
      if (state.ahead === null || !allAhead(req.spec)) state.batches.push(req.batch);
      state.rows += req.batch.rows;
      return out;
    }
    const encoders = this.part(state, req.part);
    const out: EncodedBytes = {};
    if (req.op === 'encode') {
      const { batches, rows, streamed, streamedPart } = state;
      const ahead = fits(state.ahead?.spec, req.part) ? state.ahead : null;
      state.batches = [];
      state.rows = 0;
      state.streamed = 0;
      state.ahead = noAhead();
      // lines already answered belong to the part they were sent with, for the columns they were
      if (streamed > 0 && (ahead === null || streamedPart !== req.part.id))
        throw new Error(
          `encoder: ${streamed} rows of a row group were written to part ${streamedPart} as CSV lines, but the group is encoded into part ${req.part.id}${ahead === null ? ' for other columns' : ''}`,
        );
      let cells: GroupCells | undefined;
      const whole = (): GroupCells => {
        if (cells === undefined) {
          // the writer sends a group's slices for the columns of the part they go into (it writes
          // the group before the model grows), so a group taken ahead is never encoded whole
          const kept = batches.reduce((sum, b) => sum + b.rows, 0);
          if (kept !== rows)
            throw new Error(
              `encoder: a row group of ${rows} rows, ${rows - kept} of them taken ahead for other columns than its part's, cannot be encoded whole`,
            );
          const group = new RowGroupBuffer();
          for (const batch of batches) group.append(batch);
          cells = new GroupCells(group, req.part.window);
        }
        return cells;
      };
      for (const [format, enc] of encoders)
        out[format] = (ahead && enc.encodedAhead?.(ahead, rows)) ?? enc.group(whole());
    } else {
      for (const [format, enc] of encoders) out[format] = enc.finish();
      state.parts.delete(req.part.id);
    }
    return out;
  }

  /**
   * The slice's CSV lines, encoded now (answered at once when its part is known, else held for the
   * group), and its Parquet columns, their full pages written now (from the batch's own arrays, which
   * nothing changes afterwards).
   */
  private takeAhead(
    state: StreamState,
    batch: ColumnBatch,
    spec: SliceSpec | undefined,
    part: PartSpec | undefined,
  ): EncodedBytes | undefined {
    const ahead = state.ahead;
    if (ahead === null) return undefined;
    if (spec === undefined || (ahead.spec !== undefined && !sameSpec(ahead.spec, spec))) {
      state.ahead = null;
      return undefined;
    }
    const cells = new GroupCells(RowGroupBuffer.of(batch), spec.window);
    const columns = spec.columns.map((c) => cells.of(c));
    let out: EncodedBytes | undefined;
    if (spec.formats.includes('csv')) {
      const lines = csvBytes(columns, batch.rows, spec.formulaGuard, doubleColumns(spec.columns));
      const csv = part !== undefined && fits(spec, part) ? this.part(state, part).get('csv') : undefined;
      // lines held for this group stay first: later ones are held too
      if (csv?.encodedAhead !== undefined && ahead.csv.length === 0) {
        out = { csv: csv.encodedAhead({ csv: [lines], parquet: null }, batch.rows) ?? [] };
        state.streamed += batch.rows;
        state.streamedPart = part?.id;
      } else ahead.csv.push(lines);
    }
    if (spec.formats.includes('parquet')) {
      ahead.parquet ??= spec.columns.map((c) => new ColumnChunk(c));
      for (const [i, column] of ahead.parquet.entries()) column.add(columns[i] as readonly Cell[]);
    }
    ahead.spec = spec;
    return out;
  }

  private state(stream: number): StreamState {
    let state = this.streams.get(stream);
    if (state === undefined) {
      state = { batches: [], rows: 0, streamed: 0, ahead: noAhead(), parts: new Map() };
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

/** Formats whose encoder takes a group's slices as they arrive (`PartEncoder.encodedAhead`). */
const AHEAD: ReadonlySet<Format> = new Set<Format>(['csv', 'parquet']);

/** Whether every format of a slice's spec is taken ahead (so the slice itself need not be kept). */
const allAhead = (spec: SliceSpec | undefined): boolean => spec?.formats.every((f) => AHEAD.has(f)) ?? false;

/**
 * Whether the group's slices were all encoded ahead (a spec is set only once a slice was, and every
 * slice of the group was while `lines` is not null) for exactly this part's columns, window and guard.
 */
function fits(spec: SliceSpec | undefined, part: PartSpec): boolean {
  return (
    spec !== undefined &&
    sameSpec(spec, {
      columns: part.columns,
      window: part.window,
      formulaGuard: part.formulaGuard ?? false,
      formats: part.formats,
    })
  );
}

function sameSpec(a: SliceSpec, b: SliceSpec): boolean {
  return (
    a.formulaGuard === b.formulaGuard &&
    a.formats.length === b.formats.length &&
    a.formats.every((f, i) => b.formats[i] === f) &&
    a.window.start === b.window.start &&
    a.window.end === b.window.end &&
    a.columns.length === b.columns.length &&
    a.columns.every((c, i) => {
      const d = b.columns[i];
      return (
        d !== undefined && c.name === d.name && c.type === d.type && c.key === d.key && c.role === d.role
      );
    })
  );
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
        append: async (batch, spec, part) => ({
          bytes: run({ op: 'append', stream, batch, ...(spec ? { spec } : {}), ...(part ? { part } : {}) }),
        }),
        encode: (part) => run({ op: 'encode', stream, part }),
        finish: (part) => run({ op: 'finish', stream, part }),
        close: () => {
          host.handle({ op: 'close', stream });
        },
      };
    },
  };
}
