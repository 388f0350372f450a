/**
 * The Glue columns of a report's table (docs/export.md "Catalog"): the report's column model. In the
 * template, the part of the model known before any run — `window_start`, `window_end` and the
 * requested metrics, named and typed by the same rules as the files (names are handed out to these
 * first, so they never change); the workflow's Finalize step then sets each table to the whole stored
 * model after every run, fields included. Only formats whose registry entry says `catalog` get a
 * table (Parquet): CSV and JSON Lines are for people and plain-file readers.
 */
import type { ReportConfig } from '#core/config/schema';
import type { Format } from '#core/export/formats';
import { type ColumnModel, planModel } from '#core/export/model';
import type { Naming } from '#core/export/names';
import type { ColumnType } from '#core/manifest';

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

/** The columns known at synth time (before the first run stored a model). */
export function reportColumns(report: ReportConfig, naming: Naming): GlueColumn[] {
  return glueColumns(
    planModel(null, { idFields: [], metrics: report.metrics ?? [], naming, overrides: report.columns }),
  );
}

/** `weekly-campaigns` + `campaigns` + `parquet` → `weekly_campaigns__campaigns__parquet`. */
export function tableName(scheduleId: string, reportId: string, format: Format): string {
  return `${scheduleId}__${reportId}__${format}`.replace(/-/g, '_');
}
