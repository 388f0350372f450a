/** CSV encoding of one part: the header, then each row group's lines, as UTF-8. */
import { csvHeader, csvLines } from './csv';
import type { Cell } from './flatten';
import type { ColumnDef } from './model';
import type { ColumnCells, GroupAhead, PartEncoder } from './part-encoder';

const encoder = new TextEncoder();
/** Rows per encoded chunk: bounds the size of the intermediate strings. */
const SLICE_ROWS = 5_000;

/** `rows` rows of already-fitted column cells as CSV lines, UTF-8 (no header). */
export function csvBytes(
  cols: readonly (readonly Cell[])[],
  rows: number,
  guard: boolean,
  doubles: readonly boolean[],
): Uint8Array {
  return encoder.encode(csvLines(cols, 0, rows, guard, doubles));
}

/** Per column, whether it is a `double` column (`csvLines`). */
export function doubleColumns(columns: readonly ColumnDef[]): boolean[] {
  return columns.map((c) => c.type === 'double');
}

export class CsvEncoder implements PartEncoder {
  private headerDone = false;

  constructor(
    private readonly columns: readonly ColumnDef[],
    /** The formula guard (`output.csvFormulaGuard`; exports are exact by default). */
    private readonly guard = false,
  ) {}

  group(group: ColumnCells): Uint8Array[] {
    const cols = this.columns.map((c) => group.of(c));
    const out: Uint8Array[] = [];
    for (let from = 0; from < group.rows; from += SLICE_ROWS) {
      const rows = csvLines(
        cols,
        from,
        Math.min(group.rows, from + SLICE_ROWS),
        this.guard,
        doubleColumns(this.columns),
      );
      out.push(encoder.encode(this.headerDone ? rows : csvHeader(this.columns, this.guard) + rows));
      this.headerDone = true;
    }
    return out;
  }

  /** A group's lines already encoded slice by slice (`encoder.ts`), after the header if first. */
  encodedAhead({ csv: chunks }: GroupAhead): Uint8Array[] {
    if (chunks.length === 0) return [];
    const out = this.headerDone
      ? [...chunks]
      : [encoder.encode(csvHeader(this.columns, this.guard)), ...chunks];
    this.headerDone = true;
    return out;
  }

  /** A part with no rows still gets its header, so every CSV file is self-describing. */
  finish(): Uint8Array[] {
    if (this.headerDone) return [];
    this.headerDone = true;
    return [encoder.encode(csvHeader(this.columns, this.guard))];
  }
}
