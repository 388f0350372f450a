/**
 * The catalog view of a report's column model (docs/export.md "Catalog"): table names and Glue
 * columns. Only formats whose registry entry says `catalog` (Parquet) get a table; its columns are the
 * model's, by name and type, in file order.
 */
import type { ColumnType } from '../manifest';
import type { Format } from './formats';
import type { ColumnModel } from './model';

export interface GlueColumn {
  readonly name: string;
  readonly type: string;
}

const GLUE_TYPES: Readonly<Record<ColumnType, string>> = {
  string: 'string',
  int64: 'bigint',
  double: 'double',
  date: 'date',
  timestamp: 'timestamp',
  boolean: 'boolean',
};

/** Glue columns of a model, in file order. */
export function glueColumns(model: ColumnModel): GlueColumn[] {
  return model.columns.map((c) => ({ name: c.name, type: GLUE_TYPES[c.type] }));
}

/** `weekly-campaigns` + `campaigns` + `parquet` → `weekly_campaigns__campaigns__parquet`. */
export function tableName(scheduleId: string, reportId: string, format: Format): string {
  return `${scheduleId}__${reportId}__${format}`.replace(/-/g, '_');
}

/**
 * The table's columns after a commit: the model's, in file order, then any column the table had that
 * the model no longer names (a table never loses a column, so a query that named it keeps working).
 * A column the model names takes the model's type.
 */
export function mergedColumns(have: readonly GlueColumn[], want: readonly GlueColumn[]): GlueColumn[] {
  const named = new Set(want.map((c) => c.name));
  return [...want, ...have.filter((c) => !named.has(c.name))];
}

/** A report's table as Finalize creates it when absent (the deployment's catalog owns the rest). */
export interface TableSpec {
  readonly name: string;
  /** What the table holds, e.g. `weekly-campaigns/posts (/v2/posts) as parquet`. */
  readonly description: string;
  /** The format's folder of the report, `s3://bucket/prefix/schedule/report/format/`. */
  readonly location: string;
  readonly format: Format;
  readonly columns: readonly GlueColumn[];
}

/** The catalog that tables are kept equal to the model in (Glue in the deployment). */
export interface Catalog {
  /** The table's columns, or null when the table does not exist. */
  columns(table: string): Promise<GlueColumn[] | null>;
  /** Sets the table's columns (everything else about the table unchanged). */
  setColumns(table: string, columns: readonly GlueColumn[]): Promise<void>;
  /** Creates the table; false when it exists already (another run created it first). */
  createTable(spec: TableSpec): Promise<boolean>;
}
