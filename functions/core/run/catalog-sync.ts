/**
 * Keeps each report's catalog tables equal to its stored column model (docs/export.md "Catalog"). The
 * workflow owns the tables, not the template: after a run, every table of a report that succeeded is
 * created when absent (with the model's columns) and otherwise extended to the whole model — the
 * columns a run added included — never losing a column it had. So a table is complete from the first
 * run on, a `cdk deploy` never changes it, and the stack does not grow with the number of reports.
 */
import type { Config } from '../config/schema';
import { type Catalog, type GlueColumn, glueColumns, mergedColumns, tableName } from '../export/catalog';
import { FORMATS } from '../export/formats';
import { formatPrefix } from '../export/keys';
import { sinkModelStore } from '../export/model-store';
import type { Manifest, ManifestReport } from '../manifest';
import type { Sink } from '../sink';

export interface CatalogSyncResult {
  readonly created: string[];
  readonly updated: string[];
}

const same = (a: readonly GlueColumn[], b: readonly GlueColumn[]) => JSON.stringify(a) === JSON.stringify(b);

/** What the sync reads of a run's manifest. */
export interface CommittedRun {
  readonly scheduleId: Manifest['scheduleId'];
  readonly reports: readonly Pick<ManifestReport, 'reportId' | 'route' | 'status'>[];
}

export async function syncCatalog(
  config: Config,
  manifest: CommittedRun,
  sink: Sink,
  catalog: Catalog,
): Promise<CatalogSyncResult> {
  const created: string[] = [];
  const updated: string[] = [];
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
      let have = await catalog.columns(table);
      if (have === null) {
        const spec = {
          name: table,
          description: `${manifest.scheduleId}/${report.reportId} (${report.route}) as ${format}`,
          location: sink.locate(
            formatPrefix(config.output.prefix, manifest.scheduleId, report.reportId, format),
          ),
          format,
          columns: want,
        };
        if (await catalog.createTable(spec)) {
          created.push(table);
          continue;
        }
        // created by another run meanwhile: extend it like any existing table
        have = (await catalog.columns(table)) ?? [];
      }
      const merged = mergedColumns(have, want);
      if (!same(have, merged)) {
        await catalog.setColumns(table, merged);
        updated.push(table);
      }
    }
  }
  return { created, updated };
}
