/**
 * The invariants of one export run, checked against what was served (not a test file): the report
 * succeeded; every value sent is in its column exactly — or, when the column's type cannot hold it,
 * null there with its exact text in the column's `__raw` companion and a manifest warning naming the
 * column; the formats agree cell for cell; the manifest's rowCount, files[].rows and totals equal the
 * files (bytes and sha256 are checked by `readExportFile`). Returns the problems found, so a failing
 * case prints all of them beside its shrunk input.
 */
import {
  bigintOf,
  decimalOf,
  doubleText,
  type Exact,
  exactSum,
  isIntegerText,
  isNum,
  isObj,
  parseExact,
  sameNumber,
} from '../exact-json';
import { INVALID_BYTE } from './arbitraries';
import { type Canon, type ColumnType, microsOf, type ReadFile } from './read-back';

export type Source =
  | { readonly kind: 'field'; readonly path: readonly string[] }
  | { readonly kind: 'window'; readonly which: 'start' | 'end' }
  | { readonly kind: 'metric'; readonly name: string }
  | { readonly kind: 'raw'; readonly of: string };

export interface ModelColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly source: Source;
}

export interface RunOutput {
  readonly status: string;
  readonly error: string | null;
  readonly rowCount: number;
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  /** Each total's exact JSON text, by metric. */
  readonly totals: ReadonlyMap<string, string>;
  readonly warnings: readonly { readonly code: string; readonly column?: string }[];
  /** The stored column model after the run. */
  readonly model: readonly ModelColumn[];
  /** Each format's files in manifest order, read back. */
  readonly formats: ReadonlyMap<string, readonly ReadFile[]>;
  readonly window: { readonly start: string; readonly end: string };
}

/** The silent-loss guards' codes (docs/export.md "Silent-loss guards"). */
const GUARDS = new Set(['METRIC_MISSING', 'PAGE_FULL_NO_CURSOR', 'ID_FIELDS_MISSING', 'ROWS_REPEATED']);
const TWO53 = 2n ** 53n;
/** A JSON number literal (what a numeric string must spell to count as a number). */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const INT64 = 2n ** 63n;

const sourceKey = (s: Source): string | null =>
  s.kind === 'field' ? `f${JSON.stringify(s.path)}` : s.kind === 'metric' ? `m${s.name}` : null;

/** `output.maxKeysPerObject`'s default. */
export const DEFAULT_MAX_KEYS = 100;

/**
 * The leaves of one row as the documented flattening places them: `f["a","b"]` / `m<metric>` → value.
 * A nested object of more than `maxKeys` keys is one leaf (its JSON text in one column).
 */
export function leavesOf(row: Exact, maxKeys = DEFAULT_MAX_KEYS): Map<string, Exact> {
  const out = new Map<string, Exact>();
  if (!isObj(row)) return out;
  const field = (path: string[], v: Exact) => {
    if (isObj(v) && v.entries.length > maxKeys) out.set(`f${JSON.stringify(path)}`, v);
    else if (isObj(v)) {
      if (v.entries.length === 0) out.set(`f${JSON.stringify(path)}`, null);
      for (const [k, x] of v.entries) field([...path, k], x);
      return;
    }
    out.set(`f${JSON.stringify(path)}`, v);
  };
  for (const [k, v] of row.entries) {
    if (k === 'metrics' && isObj(v)) for (const [m, x] of v.entries) out.set(`m${m}`, x);
    else if (k === 'metrics' && v === null)
      continue; // a row without metrics
    else field([k], v);
  }
  return out;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text a reader should see for a sent string (invalid bytes and lone surrogates as U+FFFD). */
export function expectedText(s: string): string {
  // String.prototype.toWellFormed, spelled out (the project's lib target predates it)
  return s.replaceAll(INVALID_BYTE, '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
}

function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

function zonedMicros(s: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/.test(s)) return null;
  try {
    return isCalendarDate(s.slice(0, 10)) ? microsOf(s) : null;
  } catch {
    return null;
  }
}

/** Does the JSON text `cell` hold the same value as `v` (numbers by exact value, objects by name)? */
function sameJson(cell: string, v: Exact): boolean {
  let parsed: Exact;
  try {
    parsed = parseExact(cell);
  } catch {
    return false;
  }
  const eq = (a: Exact, b: Exact): boolean => {
    if (isNum(a) || isNum(b)) return isNum(a) && isNum(b) && sameNumber(a.num, b.num);
    // an object is an unordered set of names (RFC 8259; JS puts integer-like keys first)
    if (isObj(a) || isObj(b))
      return (
        isObj(a) &&
        isObj(b) &&
        a.entries.length === b.entries.length &&
        a.entries.every(([k, x]) => {
          const other = b.entries.find(([kb]) => kb === k);
          return other !== undefined && eq(x, other[1]);
        })
      );
    if (Array.isArray(a) || Array.isArray(b))
      return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => eq(x, b[i]));
    return typeof a === 'string' && typeof b === 'string' ? a === expectedText(b) : a === b;
  };
  return eq(parsed, v);
}

/** A test of the typed cell for a sent value, or 'raw' when the column's type cannot hold it. */
function fits(type: ColumnType, v: Exact): ((cell: Canon) => boolean) | 'raw' {
  if (v === null) return (c) => c === null;
  if (typeof v === 'string') {
    const t = expectedText(v);
    if (type === 'string') return (c) => c === t;
    // a numeric string in a number column is the number it spells (with NUMERIC_TEXT)
    if ((type === 'int64' || type === 'double') && JSON_NUMBER.test(t)) return fits(type, { num: t });
    if (type === 'date') return isCalendarDate(t) ? (c) => c === t : 'raw';
    const micros = type === 'timestamp' ? zonedMicros(t) : null;
    return micros !== null ? (c) => c === micros : 'raw';
  }
  if (typeof v === 'boolean') return type === 'boolean' || type === 'string' ? (c) => c === String(v) : 'raw';
  if (isNum(v)) {
    const x = v.num;
    if (type === 'string') return (c) => c !== null && sameNumber(c, x);
    if (type === 'int64') {
      if (!isIntegerText(x)) return 'raw';
      const n = bigintOf(x);
      return n >= -INT64 && n < INT64 ? (c) => c === n.toString() : 'raw';
    }
    if (type === 'double') {
      const d = Number(x);
      if (!Number.isFinite(d)) return 'raw';
      // the double reads back as the text sent, or (an integer) is that integer exactly
      const exact =
        sameNumber(doubleText(d), x) ||
        (isIntegerText(x) && Number.isInteger(d) && BigInt(d) === bigintOf(x));
      return exact ? (c) => c === doubleText(d) : 'raw';
    }
    return 'raw';
  }
  return type === 'string' ? (c) => c !== null && sameJson(c, v) : 'raw';
}

/**
 * An integer beyond 2^53 in a DOUBLE column: whether the double holds it is the exporter's call
 * (exact binary value or not); either the double or the raw companion with a warning is fine.
 */
function mayBeRaw(v: Exact): boolean {
  // a numeric string counts as the number it spells
  const text = isNum(v) ? v.num : typeof v === 'string' && JSON_NUMBER.test(v) ? v : null;
  if (text === null || !isIntegerText(text)) return false;
  const n = bigintOf(text);
  return n > TWO53 || n < -TWO53;
}

/** Is `raw` the exact text of `v`? */
function rawHolds(raw: Canon, v: Exact): boolean {
  if (raw === null) return false;
  if (typeof v === 'string') return raw === expectedText(v);
  if (typeof v === 'boolean') return raw === String(v);
  if (isNum(v)) return sameNumber(raw, v.num);
  return v !== null && sameJson(raw, v);
}

/** Every file of a format, as rows over the whole model (a file's missing trailing columns are null). */
function tableOf(
  files: readonly ReadFile[],
  model: readonly ModelColumn[],
  problems: string[],
  format: string,
) {
  const rows: Canon[][] = [];
  files.forEach((f, i) => {
    const prefix = model.slice(0, f.names.length).map((c) => c.name);
    if (JSON.stringify(prefix) !== JSON.stringify(f.names))
      problems.push(`${format} file ${i}: columns ${JSON.stringify(f.names)} are not a prefix of the model`);
    for (const r of f.rows) rows.push(model.map((_, c) => (c < r.length ? (r[c] ?? null) : null)));
  });
  return rows;
}

const show = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x)) ?? String(v);

/**
 * `summed`: metrics known to be additive counters (their totals are checked for being present or
 * warned about). `lenient`: the checks a pending fix still fails, relaxed (`PENDING_FIX` in the
 * properties; none in the examples that prove a defect is still there): `totals` accepts a total of
 * a metric null in every row and an absent long total without a warning; `mergedWarnings` accepts a
 * raw companion without its warning on a report where a loss guard fired; `partColumns` accepts
 * parts of one partition with different column lists.
 */
export function runProblems(
  sent: readonly Exact[],
  out: RunOutput,
  options: {
    readonly summed: ReadonlySet<string>;
    readonly maxKeysPerObject: number | null;
    readonly lenient: {
      readonly totals: boolean;
      readonly mergedWarnings: boolean;
      readonly partColumns: boolean;
    };
  },
): string[] {
  const problems: string[] = [];
  if (out.status !== 'succeeded') return [`the report ${out.status}: ${out.error}`];
  if (out.rowCount !== sent.length) problems.push(`rowCount ${out.rowCount}, ${sent.length} rows sent`);
  const { model } = out;
  const lower = model.map((c) => c.name.toLowerCase());
  if (new Set(lower).size !== lower.length)
    problems.push(`column names collide: ${show(model.map((c) => c.name))}`);
  if (lower.includes('dt')) problems.push('a column is named like the partition key dt');
  const manifestCols = out.columns.map((c) => `${c.name}:${c.type}`);
  const modelCols = model.map((c) => `${c.name}:${c.type}`);
  if (show(manifestCols) !== show(modelCols))
    problems.push(`manifest columns ${show(manifestCols)} differ from the model ${show(modelCols)}`);

  // every part of the partition carries the same columns (the model at commit)
  if (!options.lenient.partColumns)
    for (const [format, files] of out.formats) {
      const lists = new Set(files.map((f) => JSON.stringify(f.names)));
      if (lists.size > 1) problems.push(`${format} parts carry different columns: ${[...lists].join(' / ')}`);
    }

  // the formats, cell for cell
  const tables = [...out.formats].map(
    ([format, files]) => [format, tableOf(files, model, problems, format)] as const,
  );
  const [ref, ...others] = tables;
  if (ref === undefined) return [...problems, 'no format written'];
  for (const [format, table] of others) {
    if (table.length !== ref[1].length)
      problems.push(`${format} has ${table.length} rows, ${ref[0]} ${ref[1].length}`);
    for (const [r, row] of table.entries()) {
      for (const [c, cell] of row.entries()) {
        const want = ref[1][r]?.[c] ?? null;
        const csvEmpty = format === 'csv' && cell === null && want === '';
        if (cell !== want && !csvEmpty)
          problems.push(
            `row ${r} column ${model[c]?.name}: ${format} ${show(cell)}, ${ref[0]} ${show(want)}`,
          );
      }
    }
  }
  const table = ref[1];

  // every value sent, in its column or its raw companion with a warning
  const index = new Map(model.map((c, i) => [sourceKey(c.source), i] as const));
  const rawOf = new Map(
    model.flatMap((c, i) => (c.source.kind === 'raw' ? [[c.source.of, i] as const] : [])),
  );
  const guarded = out.warnings.some((w) => GUARDS.has(w.code));
  const warned = new Set(out.warnings.map((w) => w.column));
  const warnedOf = (name: string) => warned.has(name) || (options.lenient.mergedWarnings && guarded);
  sent.forEach((row, r) => {
    const cells = table[r] ?? [];
    const leaves = leavesOf(row, options.maxKeysPerObject ?? DEFAULT_MAX_KEYS);
    for (const key of leaves.keys())
      if (!index.has(key)) problems.push(`row ${r}: the value at ${key} has no column in the model`);
    model.forEach((col, c) => {
      const cell = cells[c] ?? null;
      if (col.source.kind === 'window') {
        const want = col.source.which === 'start' ? out.window.start : out.window.end;
        if (cell !== want) problems.push(`row ${r} ${col.name}: ${show(cell)}, window ${want}`);
        return;
      }
      const key = sourceKey(col.source);
      if (key === null) return;
      const v = leaves.get(key) ?? null;
      const rawAt = rawOf.get(col.name);
      const raw = rawAt === undefined ? null : (cells[rawAt] ?? null);
      const test = fits(col.type, v);
      if (test !== 'raw' && test(cell)) {
        if (raw !== null)
          problems.push(`row ${r} ${col.name}: raw companion holds ${show(raw)} for a value that fits`);
        if (typeof v === 'string' && expectedText(v) !== v && !warnedOf(col.name))
          problems.push(`row ${r} ${col.name}: text changed to U+FFFD with no warning naming the column`);
        if (typeof v === 'string' && (col.type === 'int64' || col.type === 'double') && !warnedOf(col.name))
          problems.push(
            `row ${r} ${col.name}: the text ${show(v)} written as a number with no warning naming the column`,
          );
        if (isObj(v) && col.source.kind === 'field' && !warnedOf(col.name))
          problems.push(
            `row ${r} ${col.name}: an object kept as JSON text with no warning naming the column`,
          );
        return;
      }
      const sentText = show(v);
      if (test !== 'raw' && !mayBeRaw(v))
        problems.push(`row ${r} ${col.name} (${col.type}): ${show(cell)} for ${sentText}`);
      else if (cell !== null)
        problems.push(
          `row ${r} ${col.name} (${col.type}): ${show(cell)} for ${sentText}, expected null and raw text`,
        );
      else if (!rawHolds(raw, v))
        problems.push(`row ${r} ${col.name} (${col.type}): raw companion ${show(raw)} for ${sentText}`);
      else if (!warnedOf(col.name))
        problems.push(
          `row ${r} ${col.name}: ${sentText} moved to the raw companion with no warning naming the column`,
        );
    });
  });

  // totals equal the files
  for (const [metric, total] of out.totals) {
    const c = model.findIndex((m) => m.source.kind === 'metric' && m.source.name === metric);
    const col = model[c];
    if (col === undefined || (col.type !== 'int64' && col.type !== 'double')) {
      problems.push(`total of ${metric} has no numeric column`);
      continue;
    }
    const values = table.map((row) => row[c] ?? null).filter((v): v is string => v !== null);
    if (values.length === 0) {
      if (!options.lenient.totals)
        problems.push(`total of ${metric} is ${total} but the column is null in every row`);
      continue;
    }
    const sum = exactSum(values);
    const zero = (t: string) => decimalOf(t)?.digits === '';
    if (!(sameNumber(sum, total) || (zero(sum) && zero(total))))
      problems.push(`total of ${metric} is ${total}, the files sum to ${sum}`);
  }
  // a long-valued metric's total is exact or absent with a warning (never silently partial)
  for (const [c, col] of model.entries()) {
    if (
      col.source.kind !== 'metric' ||
      !options.summed.has(col.source.name) ||
      out.totals.has(col.source.name)
    )
      continue;
    const long = table.some((row) => {
      const v = row[c];
      return v != null && (BigInt(v) > TWO53 || BigInt(v) < -TWO53);
    });
    if (long && !options.lenient.totals && !warned.has(col.name) && !warned.has(col.source.name))
      problems.push(`total of ${col.source.name} is absent with no warning`);
  }
  return problems;
}
