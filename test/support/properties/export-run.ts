/**
 * Runs a generated case through the whole export path as the CLI wires it — the real HTTP client on
 * loopback, the folder sink, `runSchedule` (decode → flatten → model → encode → write → manifest) — and
 * reads back what one run wrote (not a test file).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { createFsSink } from '#adapters/fs-sink';
import { createHttp } from '#adapters/http';
import { createApiClient } from '#core/api/client';
import { parseConfig } from '#core/config/load';
import type { Config } from '#core/config/schema';
import type { Encoder } from '#core/export/encoder';
import { silentLog } from '#core/log';
import { runSchedule } from '#core/run/run';
import { isNum, isObj, parseExact } from '../exact-json';
import type { ExportCase } from './arbitraries';
import type { ModelColumn, RunOutput } from './invariants';
import { type ColumnType, type FileEntry, type ReadFile, readExportFile } from './read-back';

export const SCHEDULE = 'weekly';
export const REPORT = 'r';
export const FORMATS = ['parquet', 'csv', 'jsonl'] as const;
/** The two runs of every case: scheduled time and the window it exports. */
export const RUNS = [
  { at: '2026-11-16T08:00:00Z', start: '2026-11-09', end: '2026-11-15' },
  { at: '2026-11-23T08:00:00Z', start: '2026-11-16', end: '2026-11-22' },
] as const;

export function caseConfig(c: ExportCase, baseUrl: string): Config {
  return parseConfig(caseYaml(c, baseUrl));
}

/** The case's reports.yaml. */
export function caseYaml(c: ExportCase, baseUrl: string): string {
  return `
api: { baseUrl: "${baseUrl}", credentialsSecret: s }
output: { prefix: exports/, formats: [${FORMATS.join(', ')}], columnNames: ${c.columnNames}${
    c.maxKeysPerObject === null ? '' : `, maxKeysPerObject: ${c.maxKeysPerObject}`
  } }
schedules:
  - id: ${SCHEDULE}
    cron: "0 8 ? * MON *"
    window: previous-week
    reports:
      - id: ${REPORT}
        route: ${c.route}
        metrics: [${c.metrics.join(', ')}]
`;
}

/** One run of the case's schedule at `at` into `out` (encoding in `encoder`'s workers when given, as the CLI does). */
export async function runOnce(
  c: ExportCase,
  baseUrl: string,
  out: string,
  at: string,
  encoder?: Encoder,
): Promise<void> {
  const api = createApiClient({
    http: createHttp,
    baseUrl,
    credentials: async () => ({ clientId: 'id', clientSecret: 'secret' }),
    timeoutMs: 10_000,
    maxRetries: 0,
  });
  try {
    await runSchedule(
      caseConfig(c, baseUrl),
      { scheduleId: SCHEDULE, scheduledTime: at },
      {
        api,
        sink: createFsSink(out),
        mailer: null,
        log: silentLog,
        now: () => new Date(at),
        newRunId: () => `run-${at.slice(0, 10)}`,
        tuning: { rowGroupRows: c.rowGroupRows, maxPartBytes: c.maxPartBytes },
        ...(encoder ? { encoder } : {}),
      },
    );
  } finally {
    await api.close();
  }
}

function unstored(c: {
  readonly name: string;
  readonly type: string;
  readonly apiName?: string | null;
}): ModelColumn {
  const which = c.name === 'window_start' ? 'start' : c.name === 'window_end' ? 'end' : null;
  return {
    name: c.name,
    type: c.type as ColumnType,
    source: which !== null ? { kind: 'window', which } : { kind: 'metric', name: c.apiName ?? c.name },
  };
}

interface ManifestEntry {
  readonly reportId: string;
  readonly status: string;
  readonly error: string | null;
  readonly rowCount: number;
  readonly columns: { readonly name: string; readonly type: string; readonly apiName?: string | null }[];
  readonly files: FileEntry[];
  readonly warnings?: { readonly code: string; readonly column?: string }[];
}

/** What the run for `window` left in `out`: its manifest entry, the stored model and every file read back. */
export async function readRun(
  out: string,
  window: { readonly start: string; readonly end: string },
  duck: DuckDBConnection,
): Promise<RunOutput> {
  const text = await readFile(
    join(out, `exports/${SCHEDULE}/_manifests/dt=${window.end}/manifest.json`),
    'utf8',
  );
  const manifest = JSON.parse(text) as { reports: ManifestEntry[] };
  const entry = manifest.reports.find((r) => r.reportId === REPORT);
  if (entry === undefined) throw new Error(`no entry for ${REPORT} in the manifest`);
  // a report that has never had a row stores no model (its columns are the manifest's, sources aside)
  const stored = await readModel(out);
  const model = stored.length > 0 || entry.rowCount > 0 ? stored : entry.columns.map(unstored);
  const typeOf = (name: string): ColumnType => model.find((c) => c.name === name)?.type ?? 'string';
  const formats = new Map<string, ReadFile[]>();
  for (const format of FORMATS) {
    const files: ReadFile[] = [];
    for (const f of entry.files.filter((x) => x.format === format))
      files.push(await readExportFile(out, f, typeOf, duck));
    formats.set(format, files);
  }
  return {
    status: entry.status,
    error: entry.error,
    rowCount: entry.rowCount,
    columns: entry.columns,
    totals: exactTotals(text),
    warnings: entry.warnings ?? [],
    model,
    formats,
    window,
  };
}

/** The newest stored model version's columns. */
async function readModel(out: string): Promise<ModelColumn[]> {
  const dir = join(out, `exports/${SCHEDULE}/${REPORT}/_model`);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => /^v\d+\.json$/.test(n)).sort();
  const newest = names.at(-1);
  if (newest === undefined) return [];
  return (JSON.parse(await readFile(join(dir, newest), 'utf8')) as { columns: ModelColumn[] }).columns;
}

/** The report's totals with each value's exact JSON text (a decimal string is taken as its text). */
function exactTotals(manifestText: string): Map<string, string> {
  const totals = new Map<string, string>();
  const doc = parseExact(manifestText);
  const reports = isObj(doc) ? doc.entries.find(([k]) => k === 'reports')?.[1] : null;
  if (!Array.isArray(reports)) return totals;
  for (const r of reports) {
    if (!isObj(r) || !r.entries.some(([k, v]) => k === 'reportId' && v === REPORT)) continue;
    const t = r.entries.find(([k]) => k === 'totals')?.[1];
    if (t === undefined || !isObj(t)) continue;
    for (const [k, v] of t.entries) {
      if (isNum(v)) totals.set(k, v.num);
      else if (typeof v === 'string') totals.set(k, v);
    }
  }
  return totals;
}
