/**
 * DuckDB (@duckdb/node-api): the pages land as NDJSON of the flat rows, then DuckDB reads them with the
 * columns' types given (no sampling guesses) and runs one `COPY … TO` Parquet (Snappy) and one to CSV.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { columns, done, flatten, job, pages } from './api.mjs';

const cols = columns(job.metrics);
const land = join(job.outDir, 'land.ndjson');
const out = createWriteStream(land);
let rows = 0;
for await (const data of pages(job)) {
  let text = '';
  for (const row of data) text += `${JSON.stringify(flatten(row, job.metrics))}\n`;
  if (!out.write(text)) await new Promise((r) => out.once('drain', r));
  rows += data.length;
}
await new Promise((r) => out.end(r));
const TYPES = { string: 'VARCHAR', timestamp: 'VARCHAR', boolean: 'BOOLEAN', double: 'DOUBLE' };
const spec = cols.map(([c, t]) => `'${c}': '${TYPES[t]}'`).join(', ');
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(
  `CREATE TABLE t AS SELECT * FROM read_json('${land}', format = 'newline_delimited', columns = {${spec}})`,
);
await con.run(`COPY t TO '${join(job.outDir, 'posts.parquet')}' (FORMAT parquet, COMPRESSION snappy)`);
await con.run(`COPY t TO '${join(job.outDir, 'posts.csv')}' (FORMAT csv, HEADER)`);
done(rows);
