/**
 * The Glue columns of a report's table in the template (docs/export.md "Catalog"): the part of the
 * column model known before any run — `window_start`, `window_end` and the requested metrics, named
 * and typed by the same rules as the files (their names are handed out first, so they never change).
 * The workflow's Finalize step then sets each table to the whole stored model after every run.
 */
import type { ReportConfig } from '#core/config/schema';
import { type GlueColumn, glueColumns, tableName } from '#core/export/catalog';
import { planModel } from '#core/export/model';
import type { Naming } from '#core/export/names';

export type { GlueColumn };
export { tableName };

/** The columns known at synth time (before the first run stored a model). */
export function reportColumns(report: ReportConfig, naming: Naming): GlueColumn[] {
  return glueColumns(
    planModel(null, { idFields: [], metrics: report.metrics ?? [], naming, overrides: report.columns }),
  );
}
