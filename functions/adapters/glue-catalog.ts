/**
 * The Glue catalog of the deployment (one database): reads a table's columns and sets them, keeping
 * everything else of the table (location, SerDe, partition projection) as it is. The client comes
 * from the SDK's default chain; the endpoint from `AWS_ENDPOINT_URL_GLUE` when set (tests).
 */
import {
  EntityNotFoundException,
  GetTableCommand,
  GlueClient,
  type TableInput,
  UpdateTableCommand,
} from '@aws-sdk/client-glue';
import type { Catalog, GlueColumn } from '#core/export/catalog';

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
      if (
        err instanceof EntityNotFoundException ||
        (err instanceof Error && err.name === 'EntityNotFoundException')
      )
        return null;
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
  };
}
