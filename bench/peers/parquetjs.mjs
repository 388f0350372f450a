/**
 * @dsnp/parquetjs, row by row: every flat row appended to one Snappy Parquet file and written as a CSV
 * line, page by page.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import parquet from '@dsnp/parquetjs';
import { columns, csvHeader, csvLine, done, flatten, job, pages } from './api.mjs';

const cols = columns(job.metrics);
const TYPES = { string: 'UTF8', timestamp: 'UTF8', boolean: 'BOOLEAN', double: 'DOUBLE' };
const schema = new parquet.ParquetSchema(
  Object.fromEntries(cols.map(([c, t]) => [c, { type: TYPES[t], optional: true, compression: 'SNAPPY' }])),
);
const writer = await parquet.ParquetWriter.openFile(schema, join(job.outDir, 'posts.parquet'));
const csv = createWriteStream(join(job.outDir, 'posts.csv'));
csv.write(csvHeader(cols));
let rows = 0;
for await (const data of pages(job)) {
  let text = '';
  for (const row of data) {
    const flat = flatten(row, job.metrics);
    for (const k in flat) if (flat[k] === null) delete flat[k];
    await writer.appendRow(flat);
    text += csvLine(flat, cols);
  }
  if (!csv.write(text)) await new Promise((r) => csv.once('drain', r));
  rows += data.length;
}
await writer.close();
await new Promise((r) => csv.end(r));
done(rows);
