/**
 * The column model of a report (docs/export.md "Column model"): every column its files carry, in file
 * order, each with a name, a type and where its values come from. It is stored beside the data and
 * only ever extended: a run starts from the stored model and may append columns; no column's name,
 * type or position changes between runs. `planModel` is pure: given the latest stored model (or none)
 * and a buffered row group, it returns the model that can hold the group (the same model when nothing
 * is new), so a writer that lost a race simply plans again on the newer model.
 */
import * as z from 'zod/mini';
import { type ColumnType, ColumnTypeSchema } from '../manifest';
import type { Cell } from './flatten';
import { PARTITION_KEY } from './keys';
import { baseName, NameAllocator, type Naming } from './names';
import { fieldType, metricType } from './type-rule';
import { breakOf } from './values';

export const WINDOW_COLUMNS = ['window_start', 'window_end'] as const;

/**
 * Names no data column ever gets (docs/export.md "Names"): the partition key, which hive-partitioned
 * readers add as a column of their own (a data column `dt` beside the `dt=` folder made DuckDB and
 * polars show the partition's date instead of the API's, and pyarrow fail), and any lineage column
 * the exporter adds (none today; one added later is listed here). A field so named gets `dt__2`.
 */
export const RESERVED_NAMES: readonly string[] = [PARTITION_KEY];

const SourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('field'), path: z.array(z.string()) }),
  z.object({ kind: z.literal('window'), which: z.enum(['start', 'end']) }),
  z.object({ kind: z.literal('metric'), name: z.string() }),
  /** Values of column `of` that do not fit its type, as text (docs/export.md "Values that break a type"). */
  z.object({ kind: z.literal('raw'), of: z.string() }),
]);
export type ColumnSource = z.infer<typeof SourceSchema>;

export const StoredColumnSchema = z.object({
  name: z.string(),
  type: ColumnTypeSchema,
  source: SourceSchema,
});

export const ColumnModelSchema = z.object({
  modelVersion: z.literal(1),
  naming: z.enum(['snake_case', 'api']),
  columns: z.array(StoredColumnSchema),
});
export type ColumnModel = z.infer<typeof ColumnModelSchema>;

export type Role = 'id' | 'window' | 'metric' | 'raw';

export interface ColumnDef {
  readonly name: string;
  readonly type: ColumnType;
  readonly role: Role;
  readonly source: ColumnSource;
  /** The row group's key of the column's cells (`fieldKey(path)` or the metric name; a raw column's parent's). */
  readonly key: string;
  /** Of a raw column: its parent's type and whether the parent is a metric. */
  readonly of?: { readonly type: ColumnType; readonly metric: boolean };
}

/** The row group key of a field: its API path as JSON text, unambiguous whatever the keys hold. */
export function fieldKey(path: readonly string[]): string {
  return JSON.stringify(path);
}

/** The API's name of a column (nested keys joined with `.`), or null for window and raw columns. */
export function apiName(source: ColumnSource): string | null {
  if (source.kind === 'field') return source.path.join('.');
  return source.kind === 'metric' ? source.name : null;
}

export function columnDefs(model: ColumnModel): ColumnDef[] {
  const plain = model.columns.map(
    ({ name, type, source }): ColumnDef => ({
      name,
      type,
      source,
      role: source.kind === 'field' ? 'id' : source.kind,
      key: source.kind === 'field' ? fieldKey(source.path) : source.kind === 'metric' ? source.name : '',
    }),
  );
  const byName = new Map(plain.map((c) => [c.name, c]));
  return plain.map((c) => {
    if (c.source.kind !== 'raw') return c;
    const parent = byName.get(c.source.of);
    if (parent === undefined) return c;
    return { ...c, key: parent.key, of: { type: parent.type, metric: parent.role === 'metric' } };
  });
}

export interface ModelContext {
  readonly idFields: readonly string[];
  /** The report's metrics, requested order. */
  readonly metrics: readonly string[];
  readonly naming: Naming;
  /** `columns:` of the report config: API name or column name → type, for columns entering the model. */
  readonly overrides: Readonly<Record<string, ColumnType>>;
}

/** What a row group brings: field keys and metric names in first-seen order, and their cells. */
export interface GroupColumns {
  readonly fields: ReadonlyMap<string, readonly Cell[]>;
  readonly metrics: ReadonlyMap<string, readonly Cell[]>;
}

const NO_COLUMNS: GroupColumns = { fields: new Map(), metrics: new Map() };

/** The model that holds `group` (and every requested metric), starting from `latest`. */
export function planModel(
  latest: ColumnModel | null,
  ctx: ModelContext,
  group: GroupColumns = NO_COLUMNS,
): ColumnModel {
  const model = addRaw(addColumns(latest, ctx, group), group);
  return model;
}

function override(ctx: ModelContext, source: ColumnSource, name: string): ColumnType | undefined {
  // own keys only: an API key such as `constructor` must not find Object.prototype's
  const own = (key: string | null) =>
    key !== null && Object.hasOwn(ctx.overrides, key) ? ctx.overrides[key] : undefined;
  return own(apiName(source)) ?? own(name);
}

function addColumns(latest: ColumnModel | null, ctx: ModelContext, group: GroupColumns): ColumnModel {
  const have = new Set((latest?.columns ?? []).map((c) => sourceId(c.source)));
  const names = new NameAllocator([...RESERVED_NAMES, ...(latest?.columns ?? []).map((c) => c.name)]);
  const fieldKeys = [...group.fields.keys()].filter((k) => !have.has(`f${k}`));
  const idKeys = ctx.idFields.map((f) => fieldKey([f]));
  const orderedFields = [
    ...idKeys.filter((k) => fieldKeys.includes(k)),
    ...fieldKeys.filter((k) => !idKeys.includes(k)),
  ];
  const metricNames = [...ctx.metrics, ...group.metrics.keys()].filter(
    (m, i, all) => all.indexOf(m) === i && !have.has(`m${m}`),
  );
  if (latest !== null && orderedFields.length === 0 && metricNames.length === 0) return latest;

  const column = (source: ColumnSource, wanted: string, ruled: () => ColumnType) => {
    const name = names.take(wanted);
    return { name, source, type: override(ctx, source, wanted) ?? ruled() };
  };
  const fieldColumn = (key: string) => {
    const path = JSON.parse(key) as string[];
    const cells = group.fields.get(key) ?? [];
    return column({ kind: 'field', path }, baseName(path, ctx.naming), () =>
      fieldType(path.at(-1) ?? '', cells),
    );
  };
  const metricColumn = (m: string) =>
    column({ kind: 'metric', name: m }, baseName([m], ctx.naming), () => metricType(m));

  if (latest === null) {
    // first model: names go to window columns, then metrics, then fields; positions are fields, window, metrics
    const window = WINDOW_COLUMNS.map((w) =>
      column({ kind: 'window', which: w === 'window_start' ? 'start' : 'end' }, w, () => 'date'),
    ).map((c) => ({ ...c, type: 'date' as const }));
    const metrics = metricNames.map(metricColumn);
    const fields = orderedFields.map(fieldColumn);
    return { modelVersion: 1, naming: ctx.naming, columns: [...fields, ...window, ...metrics] };
  }
  const fields = orderedFields.map(fieldColumn);
  const metrics = metricNames.map(metricColumn);
  return { ...latest, columns: [...latest.columns, ...fields, ...metrics] };
}

/** Appends a `…__raw` text column for every column that has a value its type cannot hold. */
function addRaw(model: ColumnModel, group: GroupColumns): ColumnModel {
  const rawOf = new Set(model.columns.flatMap((c) => (c.source.kind === 'raw' ? [c.source.of] : [])));
  const names = new NameAllocator([...RESERVED_NAMES, ...model.columns.map((c) => c.name)]);
  const added: ColumnModel['columns'] = [];
  for (const c of model.columns) {
    if (rawOf.has(c.name) || c.type === 'string') continue;
    const cells =
      c.source.kind === 'field'
        ? group.fields.get(fieldKey(c.source.path))
        : c.source.kind === 'metric'
          ? group.metrics.get(c.source.name)
          : undefined;
    if (cells?.some((v) => breakOf(c.type, v) !== null)) {
      added.push({ name: names.take(`${c.name}__raw`), type: 'string', source: { kind: 'raw', of: c.name } });
    }
  }
  return added.length === 0 ? model : { ...model, columns: [...model.columns, ...added] };
}

/** A column's identity across models: where its values come from (names may differ). */
export function sourceId(source: ColumnSource): string {
  switch (source.kind) {
    case 'field':
      return `f${fieldKey(source.path)}`;
    case 'metric':
      return `m${source.name}`;
    case 'window':
      return `w${source.which}`;
    case 'raw':
      return `r${source.of}`;
  }
}

/** Whether `a` is `b` (same columns, same order). */
export function sameModel(a: ColumnModel | null, b: ColumnModel): boolean {
  return a !== null && JSON.stringify(a) === JSON.stringify(b);
}
