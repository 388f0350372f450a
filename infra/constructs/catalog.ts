/**
 * The Glue database of the deployment. Its tables are owned by the workflow, not the template: the
 * Finalize step creates a report's table after the report's first successful run (an external Parquet
 * table over the report's folder, partition projection on `dt`) and extends it to the report's column
 * model after every run, never removing a column (functions/core/run/catalog-sync.ts). So the stack
 * does not grow with the number of reports, and a `cdk deploy` never puts a shorter column list back.
 */
import { Stack } from 'aws-cdk-lib';
import * as glue from 'aws-cdk-lib/aws-glue';
import { Construct } from 'constructs';

/** The Glue database's name unless the stack is given another. */
export const DEFAULT_DATABASE = 'report_exporter';

export interface ExportCatalogProps {
  /** @default 'report_exporter' */
  readonly databaseName?: string;
}

export class ExportCatalog extends Construct {
  readonly database: glue.CfnDatabase;
  readonly databaseName: string;

  constructor(scope: Construct, id: string, props: ExportCatalogProps = {}) {
    super(scope, id);
    this.databaseName = props.databaseName ?? DEFAULT_DATABASE;
    this.database = new glue.CfnDatabase(this, 'Database', {
      catalogId: Stack.of(this).account,
      databaseInput: {
        name: this.databaseName,
        description:
          'report-exporter: one table per report and format, created and extended by the workflow, partition projection on dt',
      },
    });
  }
}
