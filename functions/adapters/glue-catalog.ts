/**
 * The Glue catalog of the deployment (one database, created by the stack): creates a report's table
 * when absent — an external table over the format's folder with partition projection on `dt` (the
 * window end, `yyyy-MM-dd`), so Athena finds every partition without a crawler or `MSCK REPAIR`
 * (`_SUCCESS` files are ignored by Athena: leading underscore) — reads a table's columns and sets
 * them, keeping everything else of the table as it is. The client comes from the SDK's default chain;
 * the endpoint from `AWS_ENDPOINT_URL_GLUE` when set (tests).
 */
import {
  AlreadyExistsException,
  CreateTableCommand,
  EntityNotFoundException,
  GetTableCommand,
  GlueClient,
  type TableInput,
  UpdateTableCommand,
} from '@aws-sdk/client-glue';
import type { Catalog, GlueColumn, TableSpec } from '#core/export/catalog';
import type { Format } from '#core/export/formats';

/** First partition date Athena's projection considers. */
const PROJECTION_START = '2020-01-01';

/** Input/output formats and SerDe of each catalogued format. */
const SERDES: Partial<Record<Format, NonNullable<TableInput['StorageDescriptor']>>> = {
  parquet: {
    InputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
    OutputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
    SerdeInfo: { SerializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' },
  },
};

/** The table a report's format gets: external, partitioned by `dt`, with partition projection. */
export function tableInput(spec: TableSpec): TableInput {
  const serde = SERDES[spec.format];
  if (serde === undefined) throw new Error(`the ${spec.format} format has no catalog table`);
  return {
    Name: spec.name,
    Description: spec.description,
    TableType: 'EXTERNAL_TABLE',
    PartitionKeys: [{ Name: 'dt', Type: 'string' }],
    Parameters: {
      classification: spec.format,
      EXTERNAL: 'TRUE',
      'projection.enabled': 'true',
      'projection.dt.type': 'date',
      'projection.dt.format': 'yyyy-MM-dd',
      'projection.dt.range': `${PROJECTION_START},NOW`,
      'projection.dt.interval': '1',
      'projection.dt.interval.unit': 'DAYS',
      'storage.location.template': `${spec.location}dt=\${dt}/`,
    },
    StorageDescriptor: {
      ...serde,
      Location: spec.location,
      Columns: spec.columns.map((c) => ({ Name: c.name, Type: c.type })),
    },
  };
}

const isNamed = (err: unknown, name: string) => err instanceof Error && err.name === name;

let shared: GlueClient | undefined;

/** The process-wide client (default chain; endpoint from AWS_ENDPOINT_URL_GLUE). */
function defaultGlueClient(): GlueClient {
  shared ??= new GlueClient({});
  return shared;
}

export function createGlueCatalog(database: string, client: GlueClient = defaultGlueClient()): Catalog {
  const get = async (table: string) => {
    try {
      return (await client.send(new GetTableCommand({ DatabaseName: database, Name: table }))).Table ?? null;
    } catch (err: unknown) {
      if (err instanceof EntityNotFoundException || isNamed(err, 'EntityNotFoundException')) return null;
      throw err;
    }
  };
  return {
    async columns(table) {
      const t = await get(table);
      if (t === null) return null;
      return (t.StorageDescriptor?.Columns ?? []).map(
        (c): GlueColumn => ({ name: c.Name ?? '', type: c.Type ?? '' }),
      );
    },
    async setColumns(table, columns) {
      const t = await get(table);
      if (t === null) return;
      const input: TableInput = {
        Name: t.Name,
        Description: t.Description,
        TableType: t.TableType,
        Parameters: t.Parameters,
        PartitionKeys: t.PartitionKeys,
        StorageDescriptor: {
          ...t.StorageDescriptor,
          Columns: columns.map((c) => ({ Name: c.name, Type: c.type })),
        },
      };
      await client.send(new UpdateTableCommand({ DatabaseName: database, TableInput: input }));
    },
    async createTable(spec) {
      try {
        await client.send(new CreateTableCommand({ DatabaseName: database, TableInput: tableInput(spec) }));
        return true;
      } catch (err: unknown) {
        if (err instanceof AlreadyExistsException || isNamed(err, 'AlreadyExistsException')) return false;
        throw err;
      }
    },
  };
}
