/** CSV encoding of one part: the header, then each row group's lines, as UTF-8. */
import { csvHeader, guardText } from './csv';
import type { Cell } from './flatten';
import type { ColumnDef } from './model';
import { ByteSink } from './parquet-bytes';
import type { ColumnCells, GroupAhead, PartEncoder } from './part-encoder';

const encoder = new TextEncoder();
/** Rows per encoded chunk: bounds the size of one chunk's buffer. */
const SLICE_ROWS = 5_000;
const COMMA = 0x2c;
const QUOTE = 0x22;
const INTEGER_TEXT = /^-?\d+$/;
const NEEDS_QUOTES = /[",\r\n]/;
/** One buffer for the thread: lines are written into it, then copied out. */
const sink = new ByteSink(1 << 16);

/**
 * `rows` rows of already-fitted column cells as CSV lines, UTF-8 (no header): each cell as `csvCell`
 * (csv.ts) writes it, separated by `,`, each row ending in CRLF. Written straight into bytes — no
 * string per cell, row or slice, no `TextEncoder` pass over the whole — which halved the CSV's share
 * of the encoder worker (docs/performance.md); test/core/export/csv.test.ts holds the bytes to
 * `csvCell`'s text, encoded, for any cells.
 */
export function csvBytes(
  cols: readonly (readonly Cell[])[],
  rows: number,
  guard: boolean,
  doubles: readonly boolean[],
  from = 0,
  /** Text written before the lines (the header row of a part's first group). */
  before = '',
): Uint8Array {
  sink.length = 0;
  sink.utf8(before);
  const n = cols.length;
  for (let r = from; r < from + rows; r += 1) {
    for (let c = 0; c < n; c += 1) {
      if (c > 0) sink.u8(COMMA);
      const v = (cols[c] as readonly Cell[])[r] ?? null;
      if (v === null) continue;
      if (typeof v === 'string') text(guard ? guardText(v) : v);
      else if (typeof v === 'boolean') sink.utf8(v ? 'true' : 'false');
      else number(v, doubles[c] === true);
    }
    sink.ensure(2);
    sink.buf[sink.length++] = 0x0d;
    sink.buf[sink.length++] = 0x0a;
  }
  return sink.take();
}

/** A text cell, quoted when it holds `"`, `,`, CR or LF (RFC 4180), as UTF-8. */
function text(value: string): void {
  const n = value.length;
  sink.ensure(n);
  const buf = sink.buf;
  const at = sink.length;
  // ASCII without a character that needs quotes: its bytes are its char codes (one pass)
  for (let i = 0; i < n; i += 1) {
    const c = value.charCodeAt(i);
    if (c >= 0x80 || c === QUOTE || c === COMMA || c === 0x0d || c === 0x0a) {
      if (NEEDS_QUOTES.test(value)) {
        sink.u8(QUOTE);
        sink.utf8(value.replaceAll('"', '""'));
        sink.u8(QUOTE);
      } else sink.utf8(value);
      return;
    }
    buf[at + i] = c;
  }
  sink.length = at + n;
}

/** A number as `numberText` (values.ts) writes it: a safe integer's digits without a string. */
function number(value: number | bigint, double: boolean): void {
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    sink.ensure(20);
    const buf = sink.buf;
    let at = sink.length;
    let v = value;
    if (v < 0 || Object.is(v, -0)) {
      buf[at++] = 0x2d;
      v = -v;
    }
    let digits = 1;
    for (let p = 10; p <= v; p *= 10) digits += 1;
    for (let i = at + digits - 1; i >= at; i -= 1) {
      const d = v % 10;
      buf[i] = 0x30 + d;
      v = (v - d) / 10;
    }
    sink.length = at + digits;
    if (double) sink.utf8('.0');
    return;
  }
  const t = String(value);
  sink.utf8(t);
  if (double && INTEGER_TEXT.test(t)) sink.utf8('.0');
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
    const doubles = doubleColumns(this.columns);
    const out: Uint8Array[] = [];
    for (let from = 0; from < group.rows; from += SLICE_ROWS) {
      const header = this.headerDone ? '' : csvHeader(this.columns, this.guard);
      out.push(csvBytes(cols, Math.min(SLICE_ROWS, group.rows - from), this.guard, doubles, from, header));
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
