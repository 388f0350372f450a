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

/** The catalog that tables are kept equal to the model in (Glue in the deployment). */
export interface Catalog {
  /** The table's columns, or null when the table does not exist. */
  columns(table: string): Promise<GlueColumn[] | null>;
  /** Sets the table's columns (everything else about the table unchanged). */
  setColumns(table: string, columns: readonly GlueColumn[]): Promise<void>;
}
