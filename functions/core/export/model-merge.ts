/**
 * The model at commit (docs/export.md "Schema evolution"): a writer grows its report's model in memory
 * while it exports and stores it only when the export is complete, merged into the newest stored
 * version — so a failed run never stores a grown model, and two windows of one report exported at
 * once both end up with both their columns, in one order.
 */
import { type ColumnModel, RESERVED_NAMES, sourceId } from './model';
import { NameAllocator } from './names';

type StoredColumn = ColumnModel['columns'][number];

/**
 * A column's identity, the same in every model that has it: its source, and for a raw companion its
 * parent's source (a parent's name may differ between two writers' models).
 */
export function columnIdentity(column: StoredColumn, byName: ReadonlyMap<string, StoredColumn>): string {
  if (column.source.kind !== 'raw') return sourceId(column.source);
  const parent = byName.get(column.source.of);
  return `r${parent ? sourceId(parent.source) : column.source.of}`;
}

export function columnsByName(model: ColumnModel): Map<string, StoredColumn> {
  return new Map(model.columns.map((c) => [c.name, c]));
}

/**
 * `latest` (the newest stored model, or none) extended by every column of `ours` it lacks, in `ours`'
 * order, named by the naming rules against `latest`'s names. `latest` itself when it has them all.
 * A column both have keeps `latest`'s name, type and position.
 */
export function mergeModel(latest: ColumnModel | null, ours: ColumnModel): ColumnModel {
  if (latest === null) return ours;
  const latestByName = columnsByName(latest);
  const known = new Map(latest.columns.map((c) => [columnIdentity(c, latestByName), c.name]));
  const oursByName = columnsByName(ours);
  const names = new NameAllocator([...RESERVED_NAMES, ...latest.columns.map((c) => c.name)]);
  /** our name → the merged model's name */
  const renamed = new Map<string, string>();
  const added: StoredColumn[] = [];
  for (const c of ours.columns) {
    const id = columnIdentity(c, oursByName);
    const have = known.get(id);
    if (have !== undefined) {
      renamed.set(c.name, have);
      continue;
    }
    const name = names.take(c.name);
    const source =
      c.source.kind === 'raw'
        ? { kind: 'raw' as const, of: renamed.get(c.source.of) ?? c.source.of }
        : c.source;
    added.push({ name, type: c.type, source });
    renamed.set(c.name, name);
    known.set(id, name);
  }
  return added.length === 0 ? latest : { ...latest, columns: [...latest.columns, ...added] };
}
