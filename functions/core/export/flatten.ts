/**
 * One API row → flat cells. Identifying fields stay at the top level; nested objects other than
 * `metrics` become `parent_child` columns; arrays become JSON text; `metrics` is split off so metric
 * columns can be ordered as requested. Values are untrusted and kept as they came (nulls included).
 *
 * `flattenRowInto` is the one implementation: it hands each cell to a `CellSink` (the row group buffer
 * writes it straight into its column arrays, so the hot path allocates no per-row maps); `flattenRow`
 * collects the same cells into maps.
 */
import type { ApiRow } from '../api/types';

/** A cell as it leaves the flattener: JSON scalars only. */
export type Cell = string | number | boolean | null;

export interface FlatRow {
  /** Identifying and descriptive fields, in the row's own key order. */
  readonly fields: Map<string, Cell>;
  /** The row's `metrics` object, values as sent (non-numbers are kept for the type check). */
  readonly metrics: Map<string, Cell>;
}

/** Receives the cells of one row, in the row's key order. A name repeated in a row: the last value wins. */
export interface CellSink {
  field(name: string, value: Cell): void;
  metric(name: string, value: Cell): void;
}

/** Flattens one row. Deeply nested objects are flattened recursively (`a_b_c`). */
export function flattenRow(row: ApiRow): FlatRow {
  const fields = new Map<string, Cell>();
  const metrics = new Map<string, Cell>();
  flattenRowInto(row, {
    field: (name, value) => fields.set(name, value),
    metric: (name, value) => metrics.set(name, value),
  });
  return { fields, metrics };
}

/** Flattens one row into `out`. */
export function flattenRowInto(row: ApiRow, out: CellSink): void {
  for (const key in row) {
    if (!Object.hasOwn(row, key)) continue;
    const value = row[key];
    if (key === 'metrics' && isPlainObject(value)) {
      for (const name in value) if (Object.hasOwn(value, name)) out.metric(name, toCell(value[name]));
      continue;
    }
    flattenField(out, key, value);
  }
}

function flattenField(out: CellSink, name: string, value: unknown): void {
  if (isPlainObject(value)) {
    let empty = true;
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      empty = false;
      flattenField(out, childName(name, k), value[k]);
    }
    // An empty object still says the field exists; keep it as null rather than losing the column.
    if (empty) out.field(name, null);
    return;
  }
  out.field(name, toCell(value));
}

/** `parent_child`, memoised: the same few nested names repeat on every row. */
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
    name = `${parent}_${key}`;
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

function toCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  // Arrays (and objects inside metrics) are kept as JSON text so nothing is lost.
  return JSON.stringify(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
