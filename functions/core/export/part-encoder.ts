/**
 * The encoders of a part's formats, one per format. An encoder is synchronous and stateful: it turns
 * each row group into the bytes to append to the part's object, and gives the last bytes (a footer,
 * or the header of a part without rows) at the end. They run in the encoder worker (`encoder.ts`),
 * never on the thread that fetches pages. A new format is one class implementing `PartEncoder`, one
 * entry in `part-encoders.ts` and one in the format registry (`formats.ts`).
 */
import type { Cell } from './flatten';
import type { ColumnDef } from './model';
import type { ColumnChunk } from './parquet-chunk';

/** A row group as the encoders read it: each column's cells as the column holds them. */
export interface ColumnCells {
  readonly rows: number;
  of(column: ColumnDef): readonly Cell[];
}

export interface PartEncoder {
  /** The bytes of one row group (with the file's header first, where the format has one). */
  group(cells: ColumnCells): Uint8Array[];
  /** The part's last bytes. */
  finish(): Uint8Array[];
  /**
   * A group whose rows were taken slice by slice as they arrived (`encoder.ts`), as the bytes to
   * append; undefined (or left out) when this format has nothing ahead: the group is encoded whole.
   */
  encodedAhead?(ahead: GroupAhead, rows: number): Uint8Array[] | undefined;
}

/** What the encoder host took of a row group's slices as they arrived. */
export interface GroupAhead {
  /** The CSV lines of each slice. */
  readonly csv: Uint8Array[];
  /** Each column chunk of the part (in its order), its full pages written; null when not taken. */
  parquet: ColumnChunk[] | null;
}

export interface EncoderOptions {
  /** Prefix text cells a spreadsheet would run as a formula (CSV; `output.csvFormulaGuard`). */
  readonly formulaGuard: boolean;
}
