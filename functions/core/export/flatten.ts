/**
 * One API row → flat cells. Identifying fields stay at the top level; nested objects other than
 * `metrics` become columns of their own, keyed by their whole API path (`["creator","name"]`, never a
 * joined name that another key could also produce — the column's name is given by the model, see
 * `names.ts`); arrays become JSON text; `metrics` is split off so metric columns can be ordered as
 * requested. Values are untrusted and kept as they came (nulls included; integers beyond 2^53 as
 * bigint, see `api/json.ts`).
 *
 * `flattenRowInto` is the one implementation: it hands each cell to a `CellSink` (the row group buffer
 * writes it straight into its column arrays, so the hot path allocates no per-row maps); `flattenRow`
 * collects the same cells into maps.
 */
import { NumberText, toJsonText } from '../api/json';
import type { ApiRow } from '../api/types';

/** A cell as it leaves the flattener: JSON scalars only (a bigint is an integer beyond 2^53). */
export type Cell = string | number | bigint | boolean | null;

export interface FlatRow {
  /** Identifying and descriptive fields by `fieldKey(path)`, in the row's own key order. */
  readonly fields: Map<string, Cell>;
  /** The row's `metrics` object, values as sent (non-numbers are kept for the type check). */
  readonly metrics: Map<string, Cell>;
}

/** Receives the cells of one row, in the row's key order. A key repeated in a row: the last value wins. */
export interface CellSink {
  /** `key` is the field's API path as JSON text (`model.fieldKey`). */
  field(key: string, value: Cell): void;
  metric(name: string, value: Cell): void;
  /** Told when the object at `key` had more keys than the bound and became one cell of JSON text. */
  asJson?(key: string): void;
  /** Told when a string inside a cell of JSON text (an array, a wide object) had a lone surrogate. */
  invalidText?(key: string, metric: boolean): void;
}

/**
 * The default bound on the keys of one nested object (`output.maxKeysPerObject`): an object with more
 * keys holds data in its keys (per-country counts), and a column per key would grow the model by
 * thousands of columns (docs/export.md "A bound on columns").
 */
export const DEFAULT_MAX_KEYS_PER_OBJECT = 100;

/** Flattens one row. Deeply nested objects are flattened recursively (`a_b_c`). */
export function flattenRow(row: ApiRow, maxKeys = DEFAULT_MAX_KEYS_PER_OBJECT): FlatRow {
  const fields = new Map<string, Cell>();
  const metrics = new Map<string, Cell>();
  flattenRowInto(
    row,
    {
      field: (name, value) => fields.set(name, value),
      metric: (name, value) => metrics.set(name, value),
    },
    maxKeys,
  );
  return { fields, metrics };
}

/** Flattens one row into `out`; a nested object of more than `maxKeys` keys becomes JSON text. */
export function flattenRowInto(row: ApiRow, out: CellSink, maxKeys = DEFAULT_MAX_KEYS_PER_OBJECT): void {
  for (const key in row) {
    if (!Object.hasOwn(row, key)) continue;
    const value = row[key];
    if (key === 'metrics' && isPlainObject(value)) {
      for (const name in value)
        if (Object.hasOwn(value, name)) out.metric(name, toCell(value[name], out, name, true));
      continue;
    }
    // `metrics: null` is a row without metrics, not a field named "metrics" (an empty column for good)
    if (key === 'metrics' && (value === null || value === undefined)) continue;
    flattenField(out, topKey(key), value, maxKeys);
  }
}

function flattenField(out: CellSink, name: string, value: unknown, maxKeys: number): void {
  if (isPlainObject(value)) {
    if (keyCount(value) > maxKeys) {
      out.field(name, jsonCell(value, out, name, false));
      out.asJson?.(name);
      return;
    }
    let empty = true;
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      empty = false;
      flattenField(out, childName(name, k), value[k], maxKeys);
    }
    // An empty object still says the field exists; keep it as null rather than losing the column.
    if (empty) out.field(name, null);
    return;
  }
  out.field(name, toCell(value, out, name, false));
}

/** `["parent"]` for a top-level key, memoised: the same few keys repeat on every row. */
const topKeys = new Map<string, string>();

function topKey(key: string): string {
  let k = topKeys.get(key);
  if (k === undefined) {
    k = JSON.stringify([key]);
    if (topKeys.size >= 10_000) topKeys.clear();
    topKeys.set(key, k);
  }
  return k;
}

/** `["parent","child"]` from the parent's key, memoised likewise. */
const childNames = new Map<string, Map<string, string>>();
let childNameCount = 0;

function childName(parent: string, key: string): string {
  let byKey = childNames.get(parent);
  if (byKey === undefined) {
    byKey = new Map();
    childNames.set(parent, byKey);
  }
  let name = byKey.get(key);
  if (name === undefined) {
    name = `${parent.slice(0, -1)},${JSON.stringify(key)}]`;
    // untrusted rows may carry ever-new keys: keep the memo bounded
    if (childNameCount >= 10_000) {
      childNames.clear();
      childNameCount = 0;
    }
    byKey.set(key, name);
    childNameCount += 1;
  }
  return name;
}

function toCell(value: unknown, out: CellSink, key: string, metric: boolean): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value;
  // a number no double holds (beyond range, underflow, too many digits): its text, for the type check
  if (value instanceof NumberText) return value.text;
  // Arrays (and objects inside metrics) are kept as JSON text so nothing is lost.
  return jsonCell(value, out, key, metric);
}

/** JSON text of an array or object, telling `out` of any lone surrogate it replaced. */
function jsonCell(value: unknown, out: CellSink, key: string, metric: boolean): string {
  return toJsonText(value, out.invalidText ? () => out.invalidText?.(key, metric) : undefined);
}

function keyCount(value: Record<string, unknown>): number {
  let n = 0;
  for (const k in value) if (Object.hasOwn(value, k)) n += 1;
  return n;
}

/** A JSON object (not an array, and not a number the exact parser kept as its text). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof NumberText)
  );
}
