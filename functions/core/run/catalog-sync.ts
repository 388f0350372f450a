/**
 * Keeps each report's catalog tables equal to its stored column model (docs/export.md "Catalog"):
 * after a run, every table of a report that succeeded is set to the whole model — the columns a run
 * added included — when it differs. A table that does not exist is left alone (the stack creates the
 * tables) and named in the result.
 */
import type { Config } from '../config/schema';
import { type Catalog, glueColumns, tableName } from '../export/catalog';
import { FORMATS } from '../export/formats';
import { sinkModelStore } from '../export/model-store';
import type { Manifest } from '../manifest';
import type { Sink } from '../sink';

export interface CatalogSyncResult {
  readonly updated: string[];
  readonly missing: string[];
}

export async function syncCatalog(
  config: Config,
  manifest: Manifest,
  sink: Sink,
  catalog: Catalog,
): Promise<CatalogSyncResult> {
  const updated: string[] = [];
  const missing: string[] = [];
  const formats = config.output.formats.filter((f) => FORMATS[f].catalog);
  for (const report of manifest.reports) {
    if (report.status !== 'succeeded' || formats.length === 0) continue;
    const stored = await sinkModelStore(
      sink,
      config.output.prefix,
      manifest.scheduleId,
      report.reportId,
    ).load();
    if (stored === null) continue;
    const want = glueColumns(stored.model);
    for (const format of formats) {
      const table = tableName(manifest.scheduleId, report.reportId, format);
      const have = await catalog.columns(table);
      if (have === null) missing.push(table);
      else if (JSON.stringify(have) !== JSON.stringify(want)) {
        await catalog.setColumns(table, want);
        updated.push(table);
      }
    }
  }
  return { updated, missing };
}
