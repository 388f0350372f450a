/**
 * DuckDB reference writer (child process). Loads the rows the exporter wrote (its Parquet parts) into
 * an in-memory DuckDB table — NOT timed — then times, `runs` times, only
 *   COPY t TO '<file>' (FORMAT parquet, COMPRESSION snappy)
 * i.e. DuckDB's cost to encode the same rows, same columns and types, to a Snappy Parquet file from
 * its own columnar memory. Prints one JSON line: {threads, rows, runs: [{wallMs, cpuMs}]}.
 */
import { rmSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const { parquetGlob, outFile, runs } = JSON.parse(process.argv[2] ?? '{}');
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const q = (s) => s.replaceAll("'", "''");
await con.run(`CREATE TABLE t AS SELECT * FROM read_parquet('${q(parquetGlob)}')`);
const rows = Number((await con.runAndReadAll('SELECT count(*) FROM t')).getRows()[0][0]);
const threads = Number((await con.runAndReadAll("SELECT current_setting('threads')")).getRows()[0][0]);
const out = [];
for (let i = 0; i < runs; i += 1) {
  rmSync(outFile, { force: true });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await con.run(`COPY t TO '${q(outFile)}' (FORMAT parquet, COMPRESSION snappy)`);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  out.push({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000 });
}
rmSync(outFile, { force: true });
process.stdout.write(`${JSON.stringify({ threads, rows, runs: out })}\n`);
