/**
 * Column schema of a report (docs/export.md, "Columns"): identifying fields first (the route's `idFields` order,
 * then others in first-seen order), `window_start`, `window_end`, then the metrics (requested order,
 * then any others the server sent, first-seen order).
 *
 * Types are inferred from the values of the buffered row group and joined with what earlier parts
 * saw, on a small lattice: `null` (nothing seen) < `int64` < `double`; `null` < `boolean`, `date`
 * (`YYYY-MM-DD` text) < `string`; any other mix is `string`. A type never narrows: once a column has
 * held a fraction it is DOUBLE in every later part. When a row group does not fit the open part's
 * schema (a new column, or a wider type), the part is closed and the next part starts with the widened
 * schema — see docs/export.md ("Schema drift").
 */
import type { ColumnType } from '../manifest';
import type { Cell } from './flatten';

export type Kind = 'null' | ColumnType;
export type Role = 'id' | 'window' | 'metric';

export interface ColumnDef {
  readonly name: string;
  readonly type: ColumnType;
  readonly role: Role;
}

export const WINDOW_COLUMNS = ['window_start', 'window_end'] as const;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
/** Integers at or beyond 2^63 do not fit INT64; they are kept as DOUBLE. */
const INT64_LIMIT = 2 ** 63;

/** The kind of a single value. */
export function kindOf(value: Cell): Kind {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number')
    return Number.isInteger(value) && Math.abs(value) < INT64_LIMIT ? 'int64' : 'double';
  return DATE_RE.test(value) ? 'date' : 'string';
}

/** The least kind that holds both. */
export function joinKind(a: Kind, b: Kind): Kind {
  if (a === b || b === 'null') return a;
  if (a === 'null') return b;
  if ((a === 'int64' && b === 'double') || (a === 'double' && b === 'int64')) return 'double';
  return 'string';
}

/** The kind of a whole buffered column. */
export function kindOfColumn(values: readonly Cell[]): Kind {
  let kind: Kind = 'null';
  for (const v of values) {
    if (v === null) continue;
    kind = joinKind(kind, kindOf(v));
    if (kind === 'string') break;
  }
  return kind;
}

/** A column that has only ever held nulls: metrics default to int64, other fields to string. */
export function settle(kind: Kind, role: Role): ColumnType {
  if (kind !== 'null') return kind;
  return role === 'metric' ? 'int64' : 'string';
}

/**
 * Orders columns as docs/export.md ("Columns") describes. `idFields` from the route spec, `requested` from the report's metrics;
 * `seenFields` and `seenMetrics` are in first-seen order.
 */
export function orderColumns(
  idFields: readonly string[],
  requested: readonly string[],
  seenFields: readonly string[],
  seenMetrics: readonly string[],
): { name: string; role: Role }[] {
  const fieldSet = new Set(seenFields);
  const ids = [
    ...idFields.filter((f) => fieldSet.has(f)),
    ...seenFields.filter((f) => !idFields.includes(f)),
  ];
  const metrics = [...requested, ...seenMetrics.filter((m) => !requested.includes(m))];
  return [
    ...ids.map((name) => ({ name, role: 'id' as const })),
    ...WINDOW_COLUMNS.map((name) => ({ name, role: 'window' as const })),
    ...metrics.map((name) => ({ name, role: 'metric' as const })),
  ];
}

/** Whether a part fixed with `part` can take a row group whose columns have these kinds. */
export function fits(part: readonly ColumnDef[], kinds: ReadonlyMap<string, Kind>): boolean {
  const byName = new Map(part.map((c) => [c.name, c.type]));
  for (const [name, kind] of kinds) {
    if (kind === 'null') continue;
    const have = byName.get(name);
    if (have === undefined || joinKind(have, kind) !== have) return false;
  }
  return true;
}
