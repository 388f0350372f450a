/**
 * The benchmark's smoke mode (`node bench/run.mjs --smoke`): tiny sizes, the real children (simulator,
 * exporter, DuckDB, Lambda bundles) on loopback. Asserts the RESULTS format has every figure — never
 * how fast anything was (speed lives in bench/RESULTS.md, not in tests).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const NUMBER = String.raw`\d+(\.\d+)?`;

describe('bench smoke mode', () => {
  let dir = '';
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes a RESULTS file with every figure filled in', async () => {
    dir = await mkdtemp(join(tmpdir(), 'bench-smoke-'));
    const out = join(dir, 'RESULTS.md');
    await run(process.execPath, ['bench/run.mjs', '--smoke', '--out', out], {
      env: { ...process.env, BENCH_RUNS: '3' },
      maxBuffer: 16 * 1024 * 1024,
    });
    const text = await readFile(out, 'utf8');

    for (const heading of [
      '## Summary',
      '## Side by side: the CLI as users run it, against its peers',
      '### Start cost',
      '### 2k rows, no latency',
      '### I/O-bound chain: 2k rows at 100 ms a page',
      '## One cursor chain',
      '## One core',
      '## I/O-bound',
      '## CPU-bound',
      '## Memory',
      '## Lambda bundles',
    ])
      expect(text).toContain(heading);
    for (const field of [
      '| CPU |',
      '| Node | v',
      '| load average (1/5/15 min) at start |',
      'runs per figure | 3',
    ])
      expect(text).toContain(field);

    const summaryRow = (label: string) =>
      new RegExp(`^\\| ${label}[^|]*\\| [^|]*${NUMBER}[^|]*\\| [^|]+\\| (met|\\*\\*missed\\*\\*) \\|$`, 'm');
    // the side by side: start costs, the CLI against its fastest peer at each size, its memory, the I/O chain
    expect(text).toMatch(summaryRow('Start: `report-exporter --help`'));
    expect(text).toMatch(summaryRow('Start: `report-exporter validate`'));
    expect(text).toMatch(summaryRow('Side by side, 2k rows: the CLI ÷ its fastest peer'));
    expect(text).toMatch(summaryRow("Peak RSS of the CLI's process tree, 2k rows"));
    expect(text).toMatch(
      summaryRow('I/O-bound chain \\(100 ms a page, 2k rows\\): the CLI ÷ bare fetch\\+parse'),
    );
    // every peer has a row at each size: measured (with the CLI's ratio to it), or why it did not run
    expect(
      text.match(
        new RegExp(
          `^\\| fetch\\+parse \\(rows dropped\\) \\| ${NUMBER} \\| [^|]+ \\| ${NUMBER} \\| \\d+ MiB \\| ${NUMBER} \\|`,
          'gm',
        ),
      ),
    ).toHaveLength(2);
    for (const peer of [
      'pyarrow streaming',
      'DuckDB \\(NDJSON, then COPY\\)',
      'pandas \\(one DataFrame\\)',
      'apache-arrow \\+ parquet-wasm',
      '@dsnp/parquetjs \\(row by row\\)',
    ])
      expect(
        text.match(
          new RegExp(
            `^\\| ${peer} \\| (${NUMBER} \\| [^|]+ \\| ${NUMBER} \\| \\d+ MiB \\| ${NUMBER}|not run: [^|]+) \\|`,
            'gm',
          ),
        ),
      ).toHaveLength(1);
    // the CLI at each size, in the I/O-bound chain, and once alone past the largest size (the plateau)
    expect(text.match(/^\| report-exporter run \(the CLI\) \| \d+\.\d\d \| /gm)).toHaveLength(3);
    expect(text).toContain(
      "### 4k rows, no latency: the CLI alone, once (its peak RSS against the largest size's)",
    );
    expect(text).toMatch(
      new RegExp(
        `^\\| Peak RSS of the CLI's process tree, 4k rows \\(the CLI alone, one run, ${NUMBER} s\\) ÷ the highest at 2k \\| \\d+ ÷ \\d+ MiB = ${NUMBER} \\| [^|]+ \\| for reference: (levelled off|\\*\\*still growing\\*\\*) \\|$`,
        'm',
      ),
    );
    expect(text).toMatch(/^\| `report-exporter --help` \| \d+\.\d\d \| \d+\.\d\d \| \d+ MiB \|$/m);
    expect(text).toMatch(summaryRow('I/O-bound: export ÷ fetch\\+parse'));
    expect(text).toMatch(summaryRow('CPU-bound: \\(export − fetch\\+parse\\) ÷ DuckDB'));
    expect(text).toMatch(summaryRow('One chain, I/O-bound: export ÷ fetch\\+parse'));
    expect(text).toMatch(summaryRow('One chain, CPU-bound: export ÷ fetch\\+parse'));
    // on one core the default (encoding on the main thread: no worker on ≤ 2 cores) against a worker
    expect(text).toMatch(
      summaryRow(
        'One core, I/O-bound: encoding on the main thread \\(the default on ≤ 2 cores\\) ÷ with an encoder worker',
      ),
    );
    expect(text).toMatch(
      summaryRow('One core, CPU-bound: encoding on the main thread ÷ with an encoder worker'),
    );
    expect(text).toMatch(summaryRow('Memory: peak RSS 3k vs 300 rows'));
    expect(text).toMatch(summaryRow('Memory: peak RSS 24k vs 3k rows'));
    // the deployed bundles (infra) carry the goals; the other ways of bundling are for reference
    expect(text).toMatch(summaryRow('Lambda: export[^|]*bundle size, infra'));
    expect(text).toMatch(summaryRow('Lambda: slowest cold init, infra'));
    const referenceRow = (label: string) =>
      new RegExp(
        `^\\| ${label}[^|]*\\| [^|]*${NUMBER}[^|]*\\| [^|]+\\| for reference \\(not deployed\\): (within|over) \\|$`,
        'm',
      );
    for (const variant of ['sdk-external', 'sdk-bundled']) {
      expect(text).toMatch(referenceRow(`Lambda: export[^|]*bundle size, ${variant}`));
      expect(text).toMatch(referenceRow(`Lambda: slowest cold init, ${variant}`));
    }

    // each measured row carries a median and its three runs
    for (const label of ['fetch\\+parse, rows discarded', 'full export \\(Parquet \\+ CSV\\)'])
      expect(
        text.match(new RegExp(`^\\| ${label} \\| ${NUMBER} \\| ${NUMBER}, ${NUMBER}, ${NUMBER} \\|`, 'gm')),
      ).toHaveLength(2);
    expect(text).toMatch(new RegExp(`^\\| DuckDB \`COPY t TO[^|]*8,000 rows[^|]*\\| ${NUMBER} \\|`, 'm'));
    // the memory series: every size but the largest with three runs, the largest once
    expect(text.match(/^\| (300|800|3k|8k) \| \d+ MiB \| \d+, \d+, \d+ \|/gm)).toHaveLength(4);
    expect(text).toMatch(/^\| 24k \| \d+ MiB \| \d+ \|/m);
    // one-chain and one-core rows carry their three runs
    expect(
      text.match(
        new RegExp(
          `^\\| [^|]+ \\| ${NUMBER} \\| ${NUMBER}, ${NUMBER}, ${NUMBER} \\| ${NUMBER} \\| \\d+ MiB \\|`,
          'gm',
        ),
      )?.length,
    ).toBeGreaterThanOrEqual(7);
    expect(text).toMatch(/^\| export[^|]* \| external \(runtime SDK[^|]*\) \| \d+ KiB \| \d+ \|/m);
    expect(text).toMatch(/^\| export[^|]* \| bundled \(nothing external\) \| \d+ KiB \| \d+ \|/m);
    expect(text).toContain('## CPU profile');
    // a profile of the main thread, and one of each encoder worker where the host has any (none on ≤ 2 cores)
    expect(text.match(/^### Thread \d: /gm)?.length).toBeGreaterThanOrEqual(1);
    expect(text.match(/^\| [^|]+ \| \d+\.\d\d \| \d+\.\d % \|$/gm)?.length).toBeGreaterThanOrEqual(10);
  }, 600_000);
});
