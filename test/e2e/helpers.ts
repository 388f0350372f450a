/** Shared pieces of the end-to-end tests (not a test file). */
import { readFile } from 'node:fs/promises';
import { createApiClient } from '#core/api/client';
import type { ReportingApi } from '#core/api/types';
import { parseConfig } from '#core/config/load';
import { ROUTE_SPECS } from '#core/config/routes';
import type { Config, ReportConfig } from '#core/config/schema';
import type { Log } from '#core/log';
import type { ManifestReport, Window } from '#core/manifest';
import { reportRequest } from '#core/run/request';
import { createHttp } from '#http';
import type { Simulator } from '#simulator/server';
import { duckQuery, lit } from '../core/export/duck';

/** The shipped example config (all nine routes) pointed at the simulator. */
export async function exampleConfig(
  baseUrl: string,
  output: Partial<Config['output']> = {},
): Promise<Config> {
  const text = await readFile(new URL('../../reports.yaml', import.meta.url), 'utf8');
  const config = parseConfig(text);
  return {
    ...config,
    api: { ...config.api, baseUrl, pageSize: 100 },
    output: { ...config.output, ...output },
  };
}

export function simulatorApi(sim: Simulator, config: Config, log?: Log): ReportingApi {
  return createApiClient({
    http: createHttp,
    baseUrl: sim.baseUrl,
    credentials: async () => sim.credentials,
    arrayFormat: config.api.arrayFormat,
    cursorPath: config.api.cursorPath,
    pageSize: config.api.pageSize,
    concurrency: config.api.concurrency,
    timeoutMs: 5_000,
    maxRetries: 8,
    retryPolicy: { baseMs: 2, capMs: 40, retryAfterCapMs: 20 },
    ...(log ? { log } : {}),
  });
}

/** A recording log whose lines can be searched for secrets. */
export function recordingLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  const rec = (level: string) => (message: string, fields?: Readonly<Record<string, unknown>>) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  };
  return { lines, debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') };
}

type TruthRow = { metrics?: Record<string, number | null> } & Record<string, unknown>;

/** The simulator's ground truth for one report of a run. */
export function truthRows(sim: Simulator, report: ReportConfig, window: Window): TruthRow[] {
  const req = reportRequest(report, window);
  const f = req.filters;
  return sim.truth.rows(report.route, {
    startDate: req.startDate,
    endDate: req.endDate,
    ...(req.metrics ? { metrics: [...req.metrics] } : {}),
    ...(f.platform !== undefined ? { platform: f.platform } : {}),
    ...(f.contentType !== undefined ? { contentType: f.contentType } : {}),
    ...(f.dateBasis !== undefined ? { dateBasis: f.dateBasis } : {}),
    ...(f.instanceIds ? { instanceIds: [...f.instanceIds] } : {}),
    ...(f.campaignIds ? { campaignIds: [...f.campaignIds] } : {}),
  }) as TruthRow[];
}

/** DuckDB's name for each column type of the manifest. */
export const DUCK_TYPES = {
  string: 'VARCHAR',
  int64: 'BIGINT',
  double: 'DOUBLE',
  date: 'DATE',
  timestamp: 'TIMESTAMPTZ',
  boolean: 'BOOLEAN',
} as const;

/** The SQL source reading back one format of a report, with DuckDB, typed by the manifest. */
export function readBackSql(root: string, m: ManifestReport, format: 'parquet' | 'csv'): string {
  const files = m.files.filter((f) => f.format === format).map((f) => lit(`${root}/${f.key}`));
  if (format === 'parquet')
    return `read_parquet([${files.join(',')}], union_by_name=true, hive_partitioning=false)`;
  const columns = m.columns.map((c) => `${lit(c.name)}: ${lit(DUCK_TYPES[c.type])}`).join(', ');
  return `read_csv([${files.join(',')}], header=true, quote='"', escape='"', delim=',', nullstr='', strict_mode=true, union_by_name=true, hive_partitioning=false, columns={${columns}})`;
}

export interface Comparison {
  readonly rows: number;
  readonly ids: string[];
  readonly sums: Record<string, string>;
}

/** How the exporter writes a field: arrays and objects as JSON text. */
function cellText(v: unknown): string {
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

/** The route's first identifying field the export has (column name and API name), else its first column. */
function idColumn(m: ManifestReport): { column: string; api: string } {
  const byApi = new Map(m.columns.map((c) => [c.apiName ?? c.name, c.name]));
  const api = ROUTE_SPECS[m.route as keyof typeof ROUTE_SPECS].idFields.find((f) => byApi.has(f));
  if (api !== undefined) return { api, column: byApi.get(api) ?? api };
  const first = m.columns[0];
  return { api: first?.apiName ?? first?.name ?? 'id', column: first?.name ?? 'id' };
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Row count, sorted id set and per-metric sums of what DuckDB reads back. */
export async function readBackSummary(source: string, m: ManifestReport): Promise<Comparison> {
  const idField = idColumn(m);
  // metric columns are the ones after window_end (docs/export.md column order)
  const metrics = m.columns
    .slice(m.columns.findIndex((c) => c.name === 'window_end') + 1)
    .filter((c) => c.type === 'int64' || c.type === 'double');
  const sums = metrics.map(
    (c) =>
      `${c.type === 'int64' ? `sum(${q(c.name)})::VARCHAR` : `sum(${q(c.name)})::VARCHAR`} AS ${q(c.name)}`,
  );
  const [agg] = await duckQuery(
    `SELECT count(*)::VARCHAR AS n${sums.length ? `, ${sums.join(', ')}` : ''} FROM ${source}`,
  );
  const ids = await duckQuery(`SELECT ${q(idField.column)}::VARCHAR AS id FROM ${source} ORDER BY 1`);
  const out: Record<string, string> = {};
  for (const c of metrics) out[c.name] = String(agg?.[c.name] ?? 'null');
  return { rows: Number(agg?.n), ids: ids.map((r) => String(r.id)).sort(), sums: out };
}

/** Asserts two summaries agree: counts and ids exactly, integer sums exactly, double sums to 1e-9. */
export function sameSummary(got: Comparison, want: Comparison): string[] {
  const problems: string[] = [];
  if (got.rows !== want.rows) problems.push(`rows ${got.rows} != ${want.rows}`);
  if (got.ids.join('\n') !== want.ids.join('\n')) problems.push('id sets differ');
  for (const [name, value] of Object.entries(want.sums)) {
    const g = got.sums[name];
    if (g === value) continue;
    const a = Number(g);
    const b = Number(value);
    if (!(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)))) problems.push(`sum(${name}) ${g} != ${value}`);
  }
  return problems;
}

/** The same summary computed from ground truth rows (exact integer sums with BigInt). */
export function truthSummary(rows: readonly TruthRow[], m: ManifestReport, readBack: Comparison): Comparison {
  const idField = idColumn(m);
  const sums: Record<string, string> = {};
  for (const name of Object.keys(readBack.sums)) {
    const column = m.columns.find((c) => c.name === name);
    const type = column?.type;
    const api = column?.apiName ?? name;
    const values = rows.map((r) => r.metrics?.[api]).filter((v): v is number => typeof v === 'number');
    if (values.length === 0) sums[name] = 'null';
    else if (type === 'int64') sums[name] = values.reduce((s, v) => s + BigInt(v), 0n).toString();
    else sums[name] = String(values.reduce((s, v) => s + v, 0));
  }
  return { rows: rows.length, ids: rows.map((r) => cellText(r[idField.api])).sort(), sums };
}
