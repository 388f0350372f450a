/**
 * A Glue database and, per report, an external Parquet table over the report's folder with partition
 * projection on `dt` (the window end, `yyyy-MM-dd`), so Athena finds every partition without a
 * crawler or `MSCK REPAIR`. `_SUCCESS` files are ignored by Athena (leading underscore). The table's
 * columns are the report's column model (functions/core/synth.ts); CSV and JSON Lines get no table.
 */
import { Stack } from 'aws-cdk-lib';
import * as glue from 'aws-cdk-lib/aws-glue';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { Config } from '#core/config/schema';
import { FORMATS, type Format, formatPrefix, reportColumns, tableName } from '#core/synth';

/** The Glue database's name unless the stack is given another. */
export const DEFAULT_DATABASE = 'report_exporter';

/** The names of the tables the catalog creates for a config (one per report and catalogued format). */
export function catalogTables(config: Config): string[] {
  return config.schedules.flatMap((schedule) =>
    schedule.reports.flatMap((report) =>
      config.output.formats
        .filter((f) => FORMATS[f].catalog && SERDES[f] !== undefined)
        .map((f) => tableName(schedule.id, report.id, f)),
    ),
  );
}

export interface ExportCatalogProps {
  readonly config: Config;
  readonly bucket: s3.IBucket;
  /** @default 'report_exporter' */
  readonly databaseName?: string;
  /** First partition date Athena considers. @default '2020-01-01' */
  readonly projectionStart?: string;
}

const SERDES: Partial<Record<Format, glue.CfnTable.StorageDescriptorProperty>> = {
  parquet: {
    inputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
    outputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
    serdeInfo: { serializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' },
  },
};

export class ExportCatalog extends Construct {
  readonly database: glue.CfnDatabase;
  readonly databaseName: string;
  readonly tables: readonly glue.CfnTable[];

  constructor(scope: Construct, id: string, props: ExportCatalogProps) {
    super(scope, id);
    const account = Stack.of(this).account;
    this.databaseName = props.databaseName ?? DEFAULT_DATABASE;
    this.database = new glue.CfnDatabase(this, 'Database', {
      catalogId: account,
      databaseInput: {
        name: this.databaseName,
        description: 'report-exporter: one table per report and format, partition projection on dt',
      },
    });
    const { prefix, formats, columnNames } = props.config.output;
    const tables: glue.CfnTable[] = [];
    for (const schedule of props.config.schedules) {
      for (const report of schedule.reports) {
        for (const format of formats) {
          const serde = SERDES[format];
          if (!FORMATS[format].catalog || serde === undefined) continue;
          const folder = `s3://${props.bucket.bucketName}/${formatPrefix(prefix, schedule.id, report.id, format)}`;
          const table = new glue.CfnTable(this, `${schedule.id}-${report.id}-${format}`, {
            catalogId: account,
            databaseName: this.databaseName,
            tableInput: {
              name: tableName(schedule.id, report.id, format),
              description: `${schedule.id}/${report.id} (${report.route}) as ${format}`,
              tableType: 'EXTERNAL_TABLE',
              partitionKeys: [{ name: 'dt', type: 'string' }],
              parameters: {
                classification: format,
                EXTERNAL: 'TRUE',
                'projection.enabled': 'true',
                'projection.dt.type': 'date',
                'projection.dt.format': 'yyyy-MM-dd',
                'projection.dt.range': `${props.projectionStart ?? '2020-01-01'},NOW`,
                'projection.dt.interval': '1',
                'projection.dt.interval.unit': 'DAYS',
                'storage.location.template': `${folder}dt=\${dt}/`,
              },
              storageDescriptor: {
                ...serde,
                location: folder,
                columns: reportColumns(report, columnNames),
              },
            },
          });
          table.addResourceDependency(this.database);
          tables.push(table);
        }
      }
    }
    this.tables = tables;
  }
}
