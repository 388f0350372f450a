/** DuckDB as the independent reader of what the exporter wrote (test helper, not a test). */
import { DuckDBInstance } from '@duckdb/node-api';

export type DuckRow = Record<string, unknown>;

/** Runs one query in a fresh in-memory database and returns JSON-friendly row objects. */
export async function duckQuery(sql: string): Promise<DuckRow[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(sql);
    return reader.getRowObjectsJson() as DuckRow[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** SQL string literal. */
export function lit(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A CSV reader setting that takes every cell as text, quotes per RFC 4180, empty = NULL. */
export function readCsvSql(files: readonly string[], columns?: Record<string, string>): string {
  const list = `[${files.map(lit).join(',')}]`;
  const types = columns
    ? `, columns={${Object.entries(columns)
        .map(([k, v]) => `${lit(k)}: ${lit(v)}`)
        .join(', ')}}`
    : ', all_varchar=true';
  return `read_csv(${list}, header=true, quote='"', escape='"', delim=',', nullstr='', strict_mode=true${types})`;
}
