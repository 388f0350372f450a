/**
 * What `cdk synth` reads from the functions tree besides the config schema (`./config/*`) and the
 * handlers' entry points: the Glue columns of a report known before any run, the catalog's table names
 * and folders, the formats that get a table, the check that a config's state payloads fit, and the
 * workflow's scratch prefixes in the bucket (task lists, Map results) that the stack grants and names.
 * `infra/` imports core code from here only (test/architecture/infra-imports.test.ts), so this file is
 * the one published surface between the app and the code it deploys.
 */
import type { ReportConfig } from './config/schema';
import { type GlueColumn, glueColumns } from './export/catalog';
import { planModel } from './export/model';
import type { Naming } from './export/names';

export { recipientParameters } from './email/recipients';
export { type GlueColumn, tableName } from './export/catalog';
export { FORMATS, type Format } from './export/formats';
export { formatPrefix, mapResultsPrefix, workflowPrefix } from './export/keys';
export { assertWithinLimits } from './limits';

/**
 * The Glue columns of a report's table in the template (docs/export.md "Catalog"): the part of the
 * column model known before any run — `window_start`, `window_end` and the requested metrics, named
 * and typed by the same rules as the files (their names are handed out first, so they never change).
 * The workflow's Finalize step then sets each table to the whole stored model after every run.
 */
export function reportColumns(report: ReportConfig, naming: Naming): GlueColumn[] {
  return glueColumns(
    planModel(null, { idFields: [], metrics: report.metrics ?? [], naming, overrides: report.columns }),
  );
}
