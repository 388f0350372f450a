/**
 * The guarded copy of an exact CSV, for people (emailed attachments): every cell a spreadsheet would
 * run as a formula — header cells included — gets a leading `'` (csv.ts). A cell that is a plain
 * number (`-5`, `-1.5e3`) is left alone so it can still be summed. Quoting is re-applied per RFC 4180.
 */
import { guardText, looksLikeFormula, quoteCsv } from './csv';

const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Splits RFC 4180 text into rows of unquoted cells (CRLF or LF line ends). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else cell += c;
      i += 1;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      if (c === '\r') i += 1;
    } else cell += c;
    i += 1;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

function guardCell(cell: string): string {
  return looksLikeFormula(cell) && !NUMBER.test(cell) ? guardText(cell) : cell;
}

/** The guarded copy of a UTF-8 CSV file (CRLF line ends). */
export function guardCsv(bytes: Uint8Array): Uint8Array {
  const rows = parseCsv(new TextDecoder().decode(bytes));
  const text = rows.map((r) => `${r.map((c) => quoteCsv(guardCell(c))).join(',')}\r\n`).join('');
  return new TextEncoder().encode(text);
}
