/**
 * The side-by-side part of `npm run bench`: the product through its CLI, started as a user starts it
 * (`bin/report-exporter.mjs` executed through its shebang, as `report-exporter` on the PATH and `npx`
 * run it), against what a data engineer would write instead, every command a whole process timed from
 * outside, on the same simulator data, runs interleaved (product, peer, peer, …, product, …):
 *
 * - fetch+parse (bench/peers/fetch-parse.mjs): the cursor chain through fetch + JSON.parse, rows dropped
 * - pyarrow streaming and pandas (bench/peers/*.py) in a venv from pip (bench/.data/venv, made by the
 *   first full run with `pip install pyarrow pandas`; PIP_INDEX_URL picks the index; BENCH_PYTHON=path
 *   uses that interpreter instead; the smoke run uses the venv only when it is there)
 * - DuckDB (`@duckdb/node-api`), apache-arrow + parquet-wasm, @dsnp/parquetjs (bench/peers/*.mjs)
 *
 * Every command writes Parquet + CSV of one `posts/performance` report (10 metrics, 1,000-row pages)
 * into a folder of its own. Wall time is the monotonic clock around the child; CPU and peak RSS come
 * from GNU time (`%M`: the largest process of the tree the command waited for — every command here is
 * one process, its threads included, so that is the tree's peak).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TIME = '/usr/bin/time';
export const PEER_METRICS = [
  'likes',
  'comments',
  'shares',
  'clicks',
  'views',
  'impressions',
  'saves',
  'reach',
  'paidImpressions',
  'paidAdSpend',
];
/** The report's one day: `window: yesterday` of a run at 08:00 the next day. */
const DAY = '2026-10-01';
const AT = '2026-10-02T08:00:00Z';

/** Runs `cmd args` under GNU time; resolves with wall, CPU and peak RSS, rejects on a non-zero exit. */
export function timed(cmd, args, { env = {}, cwd } = {}) {
  const stats = join(process.env.TMPDIR ?? '/tmp', `bench-time-${process.pid}-${Math.random()}.txt`);
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(TIME, ['-f', '%M %U %S', '-o', stats, cmd, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(cwd ? { cwd } : {}),
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      const text = existsSync(stats) ? readFileSync(stats, 'utf8').trim().split('\n').pop() : '';
      rmSync(stats, { force: true });
      if (code !== 0)
        return reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${out.slice(-1500)}`));
      const [kb, user, sys] = text.split(' ').map(Number);
      resolve({ wallMs, cpuMs: (user + sys) * 1000, maxRssMiB: kb / 1024, out });
    });
  });
}

/**
 * The Python for the pyarrow and pandas peers: BENCH_PYTHON, or a venv in bench/.data/venv made with
 * pip on first use. Returns { python } or { reason } when there is none.
 */
function python(dataDir, log, install) {
  if (process.env.BENCH_PYTHON) return { python: process.env.BENCH_PYTHON };
  const venv = join(dataDir, 'venv');
  const py = join(venv, 'bin', 'python');
  const has = () => {
    try {
      execFileSync(py, ['-c', 'import pyarrow, pandas'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (existsSync(py) && has()) return { python: py };
  if (!install) return { reason: 'no venv yet (a full `npm run bench` makes it; or set BENCH_PYTHON)' };
  try {
    log('making the Python venv for the pyarrow and pandas peers (pip install pyarrow pandas)');
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'ignore' });
    execFileSync(py, ['-m', 'pip', 'install', '--quiet', 'pyarrow', 'pandas'], {
      stdio: 'ignore',
      timeout: 600_000,
    });
  } catch (err) {
    return { reason: `no venv with pyarrow and pandas (${String(err.message).split('\n')[0]})` };
  }
  return has() ? { python: py } : { reason: 'pip installed pyarrow and pandas, but they do not import' };
}

/** The peers, in the order they run and are reported. `cmd(job)` → [command, args]. */
function peers(root, py) {
  const node = (file) => (job) => [
    process.execPath,
    [join(root, 'bench', 'peers', file), JSON.stringify(job)],
  ];
  const pyPeer = (file) => (job) => [py.python, [join(root, 'bench', 'peers', file), JSON.stringify(job)]];
  return [
    { id: 'fetch', label: 'fetch+parse (rows dropped)', cmd: node('fetch-parse.mjs') },
    { id: 'pyarrow', label: 'pyarrow streaming', cmd: pyPeer('pyarrow_stream.py'), reason: py.reason },
    { id: 'duckdb', label: 'DuckDB (NDJSON, then COPY)', cmd: node('duckdb.mjs') },
    { id: 'pandas', label: 'pandas (one DataFrame)', cmd: pyPeer('pandas_frame.py'), reason: py.reason },
    { id: 'arrow', label: 'apache-arrow + parquet-wasm', cmd: node('arrow-wasm.mjs') },
    { id: 'parquetjs', label: '@dsnp/parquetjs (row by row)', cmd: node('parquetjs.mjs') },
  ];
}

function cliConfig(baseUrl) {
  return `api:
  baseUrl: ${baseUrl}
  credentialsSecret: bench/unused
  pageSize: 1000
  concurrency: 1
output:
  prefix: exports/
  formats: [parquet, csv]
schedules:
  - id: bench
    cron: "0 8 * * ? *"
    window: yesterday
    reports:
      - id: posts
        route: posts/performance
        metrics: [${PEER_METRICS.join(', ')}]
`;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const summary = (runs) => ({
  wallS: median(runs.map((r) => r.wallMs)) / 1000,
  minS: Math.min(...runs.map((r) => r.wallMs)) / 1000,
  cpuS: median(runs.map((r) => r.cpuMs)) / 1000,
  rssMiB: Math.max(...runs.map((r) => r.maxRssMiB)),
  walls: runs.map((r) => r.wallMs / 1000),
});

/**
 * One size: a simulator serving `rows` posts on one day; the product and each peer `runs` times,
 * interleaved, then the product alone until it has run `productRuns` times (those runs count for its
 * peak RSS only). `startSim(postsPerDay, latencyMs)` is bench/run.mjs's simulator child.
 */
async function oneSize({
  root,
  dataDir,
  startSim,
  log,
  rows,
  runs,
  productRuns = runs,
  latencyMs = 0,
  only,
  py,
}) {
  const sim = await startSim(rows, latencyMs);
  const dir = join(dataDir, 'peers');
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'reports.yaml');
  writeFileSync(config, cliConfig(sim.baseUrl));
  const job = (outDir) => ({
    baseUrl: sim.baseUrl,
    clientId: sim.clientId,
    clientSecret: sim.clientSecret,
    startDate: DAY,
    endDate: DAY,
    metrics: PEER_METRICS,
    pageSize: 1000,
    outDir,
  });
  const product = {
    id: 'product',
    label: 'report-exporter run (the CLI)',
    cmd: (j) => [
      join(root, 'bin', 'report-exporter.mjs'),
      ['run', '-c', config, '--schedule', 'bench', '--at', AT, '--out', j.outDir],
    ],
    env: { REPORTING_CLIENT_ID: sim.clientId, REPORTING_CLIENT_SECRET: sim.clientSecret },
  };
  const all = [product, ...peers(root, py).filter((p) => !only || only.includes(p.id))];
  const results = Object.fromEntries(all.map((p) => [p.id, []]));
  // the CLI's runs beyond the interleaved ones (the largest size): for its peak RSS only
  const extra = [];
  try {
    for (let i = 0; i < Math.max(runs, productRuns); i += 1) {
      for (const p of i < runs ? all : [product]) {
        if (p.reason) continue;
        const outDir = join(dir, `out-${p.id}`);
        rmSync(outDir, { recursive: true, force: true });
        mkdirSync(outDir, { recursive: true });
        const [cmd, args] = p.cmd(job(outDir));
        const r = await timed(cmd, args, { env: p.env ?? {}, cwd: dir });
        if (p.id !== 'product') {
          const got = JSON.parse(r.out.trim().split('\n').pop()).rows;
          if (got !== rows) throw new Error(`${p.id}: expected ${rows} rows, got ${got}`);
        } else if (!r.out.includes(`${rows} rows`))
          throw new Error(`the CLI did not export ${rows} rows: ${r.out}`);
        rmSync(outDir, { recursive: true, force: true });
        log(
          `${p.id} rows=${rows} latency=${latencyMs} wall=${(r.wallMs / 1000).toFixed(2)}s cpu=${(r.cpuMs / 1000).toFixed(2)}s rss=${r.maxRssMiB.toFixed(0)}MiB`,
        );
        (i < runs ? results[p.id] : extra).push(r);
      }
    }
  } finally {
    await sim.stop();
  }
  return {
    rows,
    latencyMs,
    runs,
    entries: all.map((p) => ({
      id: p.id,
      label: p.label,
      reason: p.reason,
      ...(results[p.id].length ? summary(results[p.id]) : {}),
      // peak RSS: the highest of every run, the extra ones included (their walls are not compared)
      ...(p.id === 'product' && extra.length
        ? {
            rssMiB: Math.max(...[...results.product, ...extra].map((r) => r.maxRssMiB)),
            rssRuns: results.product.length + extra.length,
          }
        : {}),
    })),
  };
}

/** Start costs, whole processes, `runs` each, interleaved. */
async function startCosts({ root, dataDir, runs, py }) {
  const config = join(root, 'reports.yaml');
  const bin = join(root, 'bin', 'report-exporter.mjs');
  const cmds = [
    ['`report-exporter --help`', bin, ['--help']],
    ['`report-exporter validate`', bin, ['validate', '-c', config]],
    ['`node -e 0` (Node itself)', process.execPath, ['-e', '0']],
    [
      '`npx report-exporter --help` (npx adds its own start)',
      'npx',
      ['--no-install', 'report-exporter', '--help'],
    ],
    ...(py.python ? [['`python -c "import pyarrow"`', py.python, ['-c', 'import pyarrow']]] : []),
  ];
  const by = cmds.map(() => []);
  for (let i = 0; i < runs; i += 1)
    for (const [k, [, cmd, args]] of cmds.entries()) by[k].push(await timed(cmd, args, { cwd: root }));
  mkdirSync(dataDir, { recursive: true });
  return cmds.map(([label], k) => ({ label, ...summary(by[k]) }));
}

/**
 * The whole side-by-side: start costs, then each size (no latency), the I/O-bound chain (100 ms a
 * page: the product and fetch+parse only) and, when `plateauRows` is above the largest size, one run
 * of the CLI alone at that size (its peak RSS only).
 */
export async function peerFigures({
  root,
  dataDir,
  startSim,
  log,
  sizes,
  ioRows,
  plateauRows = 0,
  runs,
  lastRuns,
  smoke,
}) {
  const py = python(dataDir, log, !smoke);
  if (py.reason) log(`python peers not run: ${py.reason}`);
  log('start costs');
  const start = await startCosts({ root, dataDir, runs: smoke ? 1 : Math.max(runs, 5), py });
  const bySize = [];
  for (const [i, rows] of sizes.entries()) {
    log(`side by side: ${rows} rows`);
    bySize.push(
      await oneSize({
        root,
        dataDir,
        startSim,
        log,
        rows,
        runs: i === sizes.length - 1 ? lastRuns : runs,
        // the largest size's peak is held to 300k's (flat): as many runs of the CLI as 300k has
        productRuns: runs,
        py,
      }),
    );
  }
  log(`I/O-bound chain: ${ioRows} rows, 100 ms a page`);
  const io = await oneSize({
    root,
    dataDir,
    startSim,
    log,
    rows: ioRows,
    runs,
    latencyMs: 100,
    only: ['fetch'],
    py,
  });
  let plateau;
  if (plateauRows > Math.max(...sizes)) {
    log(`plateau: ${plateauRows} rows, the CLI alone, once`);
    plateau = await oneSize({ root, dataDir, startSim, log, rows: plateauRows, runs: 1, only: [], py });
  }
  return { start, bySize, io, plateau };
}

const f2 = (x) => x.toFixed(2);
/**
 * A figure held to a bound: to two decimals, or to as many more (up to six) as it takes to print it
 * off the bound when it is off the bound ("1.00 | ≤ 1.0 | missed" reads as a contradiction; "1.0004"
 * does not).
 */
export function nearBound(x, bound) {
  for (let digits = 2; digits <= 6; digits++)
    if (x.toFixed(digits) !== bound.toFixed(digits)) return x.toFixed(digits);
  return f2(x);
}
const rowsLabel = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));
const verdict = (met) => (met ? 'met' : '**missed**');
/** Bytes of a MiB in MB. */
const MIB_IN_MB = 1.048576;
/** "Flat": the largest report's peak RSS at most this much above 300k rows'. */
const FLAT = 0.05;

/**
 * RESULTS.md rows: `summary` (figure | value | goal | verdict, for the Summary table) and `section`
 * (the side-by-side tables). Ratios compare the minimum of the runs, as the chain figures do.
 */
export function peerTables({ start, bySize, io, plateau }, { memGoals }) {
  const summaryRows = [];
  const help = start.find((s) => s.label.includes('--help`') && !s.label.includes('npx'));
  const validate = start.find((s) => s.label.includes('validate'));
  summaryRows.push(
    `| Start: \`report-exporter --help\`, whole process, median | ${nearBound(help.wallS, 0.3)} s | ≤ 0.30 s | ${verdict(help.wallS <= 0.3)} |`,
    `| Start: \`report-exporter validate\`, whole process, median | ${nearBound(validate.wallS, 0.5)} s | ≤ 0.50 s | ${verdict(validate.wallS <= 0.5)} |`,
  );
  for (const s of bySize) {
    const product = s.entries.find((e) => e.id === 'product');
    const others = s.entries.filter((e) => e.id !== 'product' && e.id !== 'fetch' && e.minS !== undefined);
    const slowest = Math.max(...others.map((e) => product.minS / e.minS));
    const worst = others.find((e) => product.minS / e.minS === slowest);
    summaryRows.push(
      `| Side by side, ${rowsLabel(s.rows)} rows: the CLI ÷ its fastest peer (${worst?.label ?? 'none'}), wall, min of ${s.runs} | ${f2(product.minS)} s ÷ ${f2(worst?.minS ?? Number.NaN)} s = ${nearBound(slowest, 1)} | < 1 (faster than every peer) | ${verdict(slowest < 1)} |`,
    );
    const goal = memGoals(s.rows);
    // the goals are in MB (10^6 bytes), GNU time's %M in KiB: both units shown, compared in MB
    if (goal)
      summaryRows.push(
        `| Peak RSS of the CLI's process tree, ${rowsLabel(s.rows)} rows | ${Math.round(product.rssMiB)} MiB (${Math.round(product.rssMiB * MIB_IN_MB)} MB) | ≤ ${goal} MB (${(goal / MIB_IN_MB).toFixed(1)} MiB) | ${verdict(product.rssMiB * MIB_IN_MB <= goal)} |`,
      );
  }
  // "flat to 3M rows": the largest size's peak within FLAT of 300k's
  const productAt = (rows) => bySize.find((s) => s.rows === rows)?.entries.find((e) => e.id === 'product');
  const rssAt = (rows) => productAt(rows)?.rssMiB;
  const rssRuns = (rows) => productAt(rows)?.rssRuns ?? bySize.find((s) => s.rows === rows)?.runs;
  const largest = Math.max(...bySize.map((s) => s.rows));
  if (largest > 300_000 && rssAt(300_000) !== undefined && rssAt(largest) !== undefined) {
    const ratio = rssAt(largest) / rssAt(300_000);
    summaryRows.push(
      `| Peak RSS of the CLI's process tree, ${rowsLabel(largest)} ÷ 300k rows, the highest of ${rssRuns(largest)} and of ${rssRuns(300_000)} runs | ${Math.round(rssAt(largest))} ÷ ${Math.round(rssAt(300_000))} MiB = ${nearBound(ratio, 1 + FLAT)} | ≤ ${f2(1 + FLAT)} (flat) | ${verdict(ratio <= 1 + FLAT)} |`,
    );
  }
  // the plateau: what a run past the largest size adds to its peak (no goal: the flat verdict is above)
  const plateauProduct = plateau?.entries.find((e) => e.id === 'product');
  if (plateauProduct !== undefined && rssAt(largest) !== undefined) {
    const ratio = plateauProduct.rssMiB / rssAt(largest);
    summaryRows.push(
      `| Peak RSS of the CLI's process tree, ${rowsLabel(plateau.rows)} rows (the CLI alone, one run, ${f2(plateauProduct.minS)} s) ÷ the highest at ${rowsLabel(largest)} | ${Math.round(plateauProduct.rssMiB)} ÷ ${Math.round(rssAt(largest))} MiB = ${nearBound(ratio, 1 + FLAT)} | for reference: whether memory still grows with rows | ${ratio <= 1 + FLAT ? 'for reference: levelled off' : 'for reference: **still growing**'} |`,
    );
  }
  const ioProduct = io.entries.find((e) => e.id === 'product');
  const ioFetch = io.entries.find((e) => e.id === 'fetch');
  const ioRatio = ioProduct.minS / ioFetch.minS;
  summaryRows.push(
    `| I/O-bound chain (100 ms a page, ${rowsLabel(io.rows)} rows): the CLI ÷ bare fetch+parse, whole processes, min of ${io.runs} | ${f2(ioProduct.minS)} s ÷ ${f2(ioFetch.minS)} s = ${nearBound(ioRatio, 1.02)} | ≤ 1.02 | ${verdict(ioRatio <= 1.02)} |`,
  );

  const table = (s) => {
    const product = s.entries.find((e) => e.id === 'product');
    return [
      '| command | wall s (min) | runs | CPU s (median) | peak RSS (max) | the CLI ÷ this |',
      '|---|---|---|---|---|---|',
      ...s.entries.map((e) =>
        e.minS === undefined
          ? `| ${e.label} | not run: ${e.reason} | | | | |`
          : `| ${e.label} | ${f2(e.minS)} | ${e.walls.map((w) => w.toFixed(2)).join(', ')} | ${f2(e.cpuS)} | ${Math.round(e.rssMiB)} MiB${e.rssRuns ? ` (of ${e.rssRuns} runs)` : ''} | ${e.id === 'product' ? '' : f2(product.minS / e.minS)} |`,
      ),
    ];
  };
  const section = [
    '## Side by side: the CLI as users run it, against its peers',
    '',
    "Every command is a whole process timed from outside (start, imports and exit included), on the same simulator data (one day of `posts/performance`, 10 metrics, 1,000-row pages, no latency unless said), Parquet + CSV into a local folder; runs interleaved. The CLI is `bin/report-exporter.mjs` executed through its shebang, as `report-exporter` on the PATH runs it. Peak RSS is GNU time's `%M`: every command here is one process (its threads included), so it is the process tree's peak. Peers: bench/peers/ (pyarrow and pandas in a venv from pip; DuckDB through `@duckdb/node-api`; apache-arrow + parquet-wasm; @dsnp/parquetjs).",
    '',
    '### Start cost (whole process, no work)',
    '',
    '| command | wall s (median) | min | peak RSS |',
    '|---|---|---|---|',
    ...start.map((s) => `| ${s.label} | ${f2(s.wallS)} | ${f2(s.minS)} | ${Math.round(s.rssMiB)} MiB |`),
    ...bySize.flatMap((s) => ['', `### ${rowsLabel(s.rows)} rows, no latency`, '', ...table(s)]),
    '',
    `### I/O-bound chain: ${rowsLabel(io.rows)} rows at 100 ms a page`,
    '',
    ...table(io),
    ...(plateau
      ? [
          '',
          `### ${rowsLabel(plateau.rows)} rows, no latency: the CLI alone, once (its peak RSS against the largest size's)`,
          '',
          ...table(plateau),
        ]
      : []),
  ];
  return { summaryRows, section };
}
