/**
 * The readers data engineers use read what we write (issue 22): pyarrow's dataset (hive partitioning),
 * polars, DuckDB (Parquet, CSV and JSON Lines) and fastparquet, each with the options docs/export.md
 * gives it, read the demo's exports (every report of both schedules, every window the demo ran) and a
 * two-run schema-evolution fixture (week two adds a field part-way through, so the model grows mid-run
 * and later parts carry more columns), and row groups of several pages whose columns start with a
 * dictionary and (numbers) fall back to PLAIN pages part-way. Each reader must see the manifests' rows and the
 * same values, cell for cell, as every other reader (DuckDB's CSV reader included).
 *
 * The readers live in a Python venv: `~/.cache/report-exporter/readers-venv` (made by `.ci/run`) or
 * the one `READERS_VENV` names. Outside CI the test skips, naming what to install; with CI=true it fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExact } from '../support/exact-json';
import type { ExportCase, RunAnswer } from '../support/properties/arbitraries';
import { REPORT, RUNS, runOnce, SCHEDULE } from '../support/properties/export-run';
import { startAnswerServer } from '../support/properties/served';
import { runCli } from '../support/run-cli';

const REPO = new URL('../..', import.meta.url).pathname;
/** Where `.ci/run` makes the readers' venv, unless READERS_VENV names another. */
const VENV =
  process.env.READERS_VENV ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'report-exporter', 'readers-venv');
const PYTHON = join(VENV, 'bin', 'python');
const SCRIPT = join(REPO, 'test/support/readers.py');
const PACKAGES = 'pyarrow polars duckdb fastparquet pandas pytz';
const READERS_MISSING = `the readers' Python venv is missing or incomplete at ${VENV}: python3 -m venv ${VENV} && ${VENV}/bin/pip install --index-url file:///opt/pypi/simple ${PACKAGES} (or point READERS_VENV at a venv that has them)`;

const hasReaders =
  existsSync(PYTHON) &&
  spawnSync(PYTHON, ['-c', 'import pyarrow, polars, duckdb, fastparquet, pandas, pytz'], { stdio: 'ignore' })
    .status === 0;

function needReaders(ctx: { skip: (note?: string) => void }): void {
  if (hasReaders) return;
  if (process.env.CI === 'true') throw new Error(READERS_MISSING);
  ctx.skip(READERS_MISSING);
}

interface Dataset {
  readonly name: string;
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  readonly rows: number;
  readonly parquet_root: string;
  readonly parquet_files: readonly string[];
  readonly csv_files: readonly string[];
  readonly jsonl_files: readonly string[];
}

type Seen = { rows: number; values: (string | null)[][] } | { error: string };

interface ReadersOutput {
  readonly versions: Record<string, string>;
  readonly datasets: Record<string, Record<string, Seen>>;
}

interface Entry {
  readonly reportId: string;
  readonly status: string;
  readonly rowCount: number;
  readonly columns: { name: string; type: string }[];
  readonly files: { format: string; key: string }[];
}

/** Every report of every schedule under `out/exports`, all its windows together, as the manifests list them. */
async function datasetsUnder(out: string, prefix = 'exports'): Promise<Dataset[]> {
  const byReport = new Map<string, { entries: Entry[]; schedule: string }>();
  for (const schedule of await readdir(join(out, prefix))) {
    const manifests = join(out, prefix, schedule, '_manifests');
    // oldest window first, so a report's last Parquet file is a part of its newest partition
    for (const window of (await readdir(manifests)).filter((n) => n.startsWith('dt=')).sort()) {
      const text = await readFile(join(manifests, window, 'manifest.json'), 'utf8');
      for (const entry of (JSON.parse(text) as { reports: Entry[] }).reports) {
        if (entry.status !== 'succeeded')
          throw new Error(`${schedule}/${entry.reportId} ${window} did not succeed`);
        const key = `${schedule}/${entry.reportId}`;
        const seen = byReport.get(key) ?? { entries: [], schedule };
        seen.entries.push(entry);
        byReport.set(key, seen);
      }
    }
  }
  return [...byReport].map(([name, { entries, schedule }]) => {
    const files = (format: string) =>
      entries.flatMap((e) => e.files.filter((f) => f.format === format).map((f) => join(out, f.key)));
    // the widest model of the report's windows (every other is a prefix of it)
    const columns = entries.reduce(
      (a, e) => (e.columns.length > a.length ? e.columns : a),
      [] as Entry['columns'],
    );
    return {
      name,
      columns: columns.map(({ name: n, type }) => ({ name: n, type })),
      rows: entries.reduce((n, e) => n + e.rowCount, 0),
      parquet_root: join(out, prefix, schedule, entries[0]?.reportId ?? '', 'parquet'),
      parquet_files: files('parquet'),
      csv_files: files('csv'),
      jsonl_files: files('jsonl'),
    };
  });
}

/** Runs the readers over `datasets` in the venv's Python. */
function readAll(datasets: readonly Dataset[]): Promise<ReadersOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`readers.py exited with ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout) as ReadersOutput);
    });
    child.stdin.end(JSON.stringify({ datasets }));
  });
}

/** Every reader saw the manifests' rows and the values the first reader saw. */
function expectAgreement(
  datasets: readonly Dataset[],
  read: ReadersOutput,
  readers: (d: Dataset) => string[],
) {
  for (const d of datasets) {
    const seen = read.datasets[d.name] ?? {};
    expect(Object.keys(seen).sort(), d.name).toEqual(readers(d).sort());
    const [first, ...rest] = Object.entries(seen);
    for (const [reader, s] of Object.entries(seen)) {
      expect('error' in s ? s.error : s.rows, `${d.name}: ${reader}`).toBe(d.rows);
    }
    if (first === undefined || 'error' in first[1]) continue;
    for (const [reader, s] of rest) {
      expect('values' in s ? s.values : s, `${d.name}: ${reader} against ${first[0]}`).toEqual(
        first[1].values,
      );
    }
  }
}

const PARQUET_READERS = [
  "pyarrow.dataset (hive, newest part's schema)",
  "polars.scan_parquet (hive, newest part's schema, missing_columns=insert)",
  'duckdb read_parquet (hive, union_by_name)',
  'fastparquet',
];
const readersOf = (d: Dataset) => [
  ...PARQUET_READERS,
  ...(d.csv_files.length > 0 ? ['duckdb read_csv (union_by_name)'] : []),
  ...(d.jsonl_files.length > 0 ? ['duckdb read_json (union_by_name)'] : []),
];

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'readers-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Exports every run of `c` into `out`, each run's window answered with the case's rows. */
async function exportRuns(c: ExportCase, out: string): Promise<void> {
  const server = await startAnswerServer(['posts/performance']);
  try {
    for (const [i, run] of RUNS.entries()) {
      const answer = c.runs[i];
      if (answer !== undefined) server.answers.set(run.end, answer);
      await runOnce(c, server.baseUrl, out, run.at);
    }
  } finally {
    await server.close();
  }
}

describe('independent readers', () => {
  it("read the demo's exports: every report, every window, the manifests' rows and the same values", async (ctx) => {
    needReaders(ctx);
    const out = join(dir, 'demo');
    const { code, stderr } = await runCli(['demo', '--out', out], { timeoutMs: 120_000 });
    expect(code, stderr).toBe(0);
    const datasets = await datasetsUnder(out);
    expect(datasets.length).toBeGreaterThanOrEqual(9);
    const read = await readAll(datasets);
    expectAgreement(datasets, read, readersOf);
    expect(datasets.reduce((n, d) => n + d.rows, 0)).toBeGreaterThan(0);
  }, 180_000);

  it('read a two-run schema evolution (a field added part-way through week two) the same way', async (ctx) => {
    needReaders(ctx);
    const out = join(dir, 'evolution');
    await exportRuns(evolutionCase(), out);
    const datasets = await datasetsUnder(out);
    expect(datasets.map((d) => d.name)).toEqual([`${SCHEDULE}/${REPORT}`]);
    const [d] = datasets;
    expect(d?.rows).toBe(12);
    // week two's parts: the first without published_at, a later one with it (the model grew mid-run)
    expect(d?.columns.map((col) => col.name)).toContain('published_at');
    const read = await readAll(datasets);
    expectAgreement(datasets, read, readersOf);
    const values = read.datasets[`${SCHEDULE}/${REPORT}`]?.['duckdb read_parquet (hive, union_by_name)'];
    const publishedAt = d?.columns.findIndex((col) => col.name === 'published_at') ?? -1;
    const published =
      values && 'values' in values ? values.values.filter((r) => r[publishedAt] !== null) : [];
    expect(published).toHaveLength(3);
  }, 120_000);

  it('read row groups of several pages, with dictionaries that fall back to PLAIN part-way, the same way', async (ctx) => {
    needReaders(ctx);
    const out = join(dir, 'fallback');
    await exportRuns(fallbackCase(), out);
    const datasets = await datasetsUnder(out);
    const [d] = datasets;
    expect(d?.rows).toBe(10_000 + 1_200);
    // the layout this test is about: a chunk with a dictionary page, RLE_DICTIONARY pages, then PLAIN
    // (a string column keeps its dictionary: `platform` is read across its pages too)
    const file = await readFile(d?.parquet_files[0] ?? '');
    const meta = parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
    const fellBack = meta.row_groups[0]?.columns.filter((k) => {
      const pages = k.meta_data?.encoding_stats?.filter((s) => s.page_type === 'DATA_PAGE') ?? [];
      return pages.some((s) => s.encoding === 'RLE_DICTIONARY') && pages.some((s) => s.encoding === 'PLAIN');
    });
    expect(fellBack?.map((k) => k.meta_data?.path_in_schema[0]).sort()).toEqual(['avg_watch_time', 'likes']);
    const read = await readAll(datasets);
    expectAgreement(datasets, read, readersOf);
  }, 120_000);
});

/**
 * posts/performance, one row group of 10,000 rows (week one) and of 1,200 (week two): in each, a
 * string, an int64 and a double column repeat a few values for 5,000 rows and are distinct afterwards.
 */
function fallbackCase(): ExportCase {
  const week = (end: string, n: number): RunAnswer => {
    const rows = Array.from({ length: n }, (_, i) => {
      const early = i < 5_000;
      const platform = early ? ['instagram', 'tiktok'][i % 2] : `platform-${end}-${i}`;
      const likes = early ? i % 3 : i * 7_919;
      const watch = early ? 12.5 + (i % 2) : i / 7;
      return `{"postId":"p${end}-${i}","platform":"${platform}","metrics":{"likes":${likes},"avgWatchTime":${watch},"shares":${i % 5 === 0 ? null : i % 4}}}`;
    });
    const parsed = parseExact(`[${rows.join(',')}]`);
    if (!Array.isArray(parsed)) throw new Error('rows');
    return {
      rows: parsed,
      breaks: Array.from({ length: 9 }, (_, k) => (k + 1) * 1_000).filter((b) => b < n),
      cuts: [],
      charset: 'utf-8',
    };
  };
  return {
    route: 'posts/performance',
    metrics: ['likes', 'avgWatchTime', 'shares'],
    columnNames: 'snake_case',
    rowGroupRows: 25_000,
    maxPartBytes: 512 * 1024 * 1024,
    maxKeysPerObject: null,
    runs: [week(RUNS[0].end, 10_000), week(RUNS[1].end, 1_200)],
  };
}

/**
 * posts/performance, week one: 6 rows with whole values; week two: fractional money and averages, and
 * from its fourth row on a `publishedAt` field and a nested `creator.name` — with two rows per row
 * group and small parts, week two's later parts carry columns its first part lacks.
 */
function evolutionCase(): ExportCase {
  const week = (end: string, two: boolean): RunAnswer => {
    const rows = Array.from({ length: 6 }, (_, i) => {
      const late = two && i >= 3;
      return `{"postId":"p${end}-${i}","platform":"${i % 2 ? 'tiktok' : 'instagram'}",${
        late ? `"publishedAt":"${end}T10:0${i}:00Z","creator":{"name":"Café ${i}"},` : ''
      }"metrics":{"likes":${10 + i},"avgWatchTime":${two ? 12.5 + i : 12 + i},"paidAdSpend":${two ? 100.1 * i : 100 * i},"shares":null}}`;
    });
    const parsed = parseExact(`[${rows.join(',')}]`);
    if (!Array.isArray(parsed)) throw new Error('rows');
    return { rows: parsed, breaks: [2, 4], cuts: [], charset: 'utf-8' };
  };
  return {
    route: 'posts/performance',
    metrics: ['likes', 'avgWatchTime', 'paidAdSpend', 'shares'],
    columnNames: 'snake_case',
    rowGroupRows: 2,
    maxPartBytes: 2048,
    maxKeysPerObject: null,
    runs: [week(RUNS[0].end, false), week(RUNS[1].end, true)],
  };
}
