/**
 * One API row → flat cells. Identifying fields stay at the top level; nested objects other than
 * `metrics` become `parent_child` columns; arrays become JSON text; `metrics` is split off so metric
 * columns can be ordered as requested. Values are untrusted and kept as they came (nulls included).
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

/** Flattens one row. Deeply nested objects are flattened recursively (`a_b_c`). */
export function flattenRow(row: ApiRow): FlatRow {
  const fields = new Map<string, Cell>();
  const metrics = new Map<string, Cell>();
  for (const [key, value] of Object.entries(row)) {
    if (key === 'metrics' && isPlainObject(value)) {
      for (const [name, v] of Object.entries(value)) metrics.set(name, toCell(v));
      continue;
    }
    flattenInto(fields, key, value);
  }
  return { fields, metrics };
}

function flattenInto(out: Map<string, Cell>, name: string, value: unknown): void {
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    // An empty object still says the field exists; keep it as null rather than losing the column.
    if (entries.length === 0) out.set(name, null);
    for (const [k, v] of entries) flattenInto(out, `${name}_${k}`, v);
    return;
  }
  out.set(name, toCell(value));
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
