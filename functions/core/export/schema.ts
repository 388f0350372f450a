/**
 * The report's running schema: every column seen so far (first-seen order) and its joined kind. It
 * lives across parts and across continuation steps (it is part of the checkpoint), so a column keeps
 * its position and a type only ever widens. Its `columns()` is what the manifest records.
 */
import { type ColumnDef, joinKind, type Kind, orderColumns, settle } from './columns';
import type { RowGroupBuffer } from './rowgroup';

export interface SchemaSnapshot {
  readonly fields: readonly string[];
  readonly metrics: readonly string[];
  readonly kinds: Readonly<Record<string, Kind>>;
}

export class SchemaState {
  private readonly fields: string[];
  private readonly metrics: string[];
  private readonly kinds: Map<string, Kind>;

  constructor(
    private readonly idFields: readonly string[],
    private readonly requested: readonly string[],
    from?: SchemaSnapshot,
  ) {
    this.fields = [...(from?.fields ?? [])];
    this.metrics = [...(from?.metrics ?? [])];
    this.kinds = new Map(Object.entries(from?.kinds ?? {}));
  }

  /** Adds a row group's columns and kinds. */
  absorb(group: RowGroupBuffer, kinds: ReadonlyMap<string, Kind>): void {
    for (const name of group.fields.keys()) if (!this.fields.includes(name)) this.fields.push(name);
    for (const name of group.metrics.keys()) if (!this.metrics.includes(name)) this.metrics.push(name);
    for (const [name, kind] of kinds) this.kinds.set(name, joinKind(this.kinds.get(name) ?? 'null', kind));
  }

  /** The full, ordered, typed column list (window columns are dates). */
  columns(): ColumnDef[] {
    return orderColumns(this.idFields, this.requested, this.fields, this.metrics).map(({ name, role }) => ({
      name,
      role,
      type: role === 'window' ? 'date' : settle(this.kinds.get(name) ?? 'null', role),
    }));
  }

  snapshot(): { fields: string[]; metrics: string[]; kinds: Record<string, Kind> } {
    return { fields: [...this.fields], metrics: [...this.metrics], kinds: Object.fromEntries(this.kinds) };
  }
}
