/**
 * DuckDB (@duckdb/node-api): the pages land as NDJSON, then one `COPY … TO` Parquet (Snappy) and one to
 * CSV, flattening in SQL.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { done, job, pages } from './api.mjs';

const land = join(job.outDir, 'land.ndjson');
const out = createWriteStream(land);
let rows = 0;
for await (const data of pages(job)) {
  let text = '';
  for (const row of data) text += `${JSON.stringify(row)}\n`;
  if (!out.write(text)) await new Promise((r) => out.once('drain', r));
  rows += data.length;
}
await new Promise((r) => out.end(r));
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const metrics = job.metrics.map((m) => `metrics.${m} AS ${m}`).join(', ');
const select = `SELECT * EXCLUDE (creator, media, hashtags, metrics), creator.id AS creator_id,
  creator.name AS creator_name, creator.handle AS creator_handle, media.format AS media_format,
  media.isVideo AS media_isVideo, media.durationSeconds AS media_durationSeconds,
  array_to_string(hashtags, ',') AS hashtags, ${metrics} FROM read_json('${land}', format = 'newline_delimited')`;
await con.run(`CREATE TABLE t AS ${select}`);
await con.run(`COPY t TO '${join(job.outDir, 'posts.parquet')}' (FORMAT parquet, COMPRESSION snappy)`);
await con.run(`COPY t TO '${join(job.outDir, 'posts.csv')}' (FORMAT csv, HEADER)`);
done(rows);
