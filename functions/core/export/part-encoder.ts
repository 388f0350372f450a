/**
 * The encoders of a part's formats, one per format. An encoder is synchronous and stateful: it turns
 * each row group into the bytes to append to the part's object, and gives the last bytes (a footer,
 * or the header of a part without rows) at the end. They run in the encoder worker (`encoder.ts`),
 * never on the thread that fetches pages. A new format is one class implementing `PartEncoder`, one
 * entry in `part-encoders.ts` and one in the format registry (`formats.ts`).
 */
import type { Cell } from './flatten';
import type { ColumnDef } from './model';

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
   * A group whose rows were encoded slice by slice as they arrived (`encoder.ts`: CSV lines), as the
   * bytes to append; formats that encode only whole groups leave it out.
   */
  encodedAhead?(chunks: readonly Uint8Array[]): Uint8Array[];
}

export interface EncoderOptions {
  /** Prefix text cells a spreadsheet would run as a formula (CSV; `output.csvFormulaGuard`). */
  readonly formulaGuard: boolean;
}
