/**
 * apache-arrow + parquet-wasm: every 25 pages the flat rows become an Arrow table (typed vectors),
 * then one Snappy Parquet part through parquet-wasm; CSV lines are written page by page.
 */
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Bool, Float64, makeTable, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { Compression, Table, WriterPropertiesBuilder, writeParquet } from 'parquet-wasm';
import { columns, csvHeader, csvLine, done, flatten, job, pages } from './api.mjs';

const cols = columns(job.metrics);
const TYPES = { string: Utf8, timestamp: Utf8, boolean: Bool, double: Float64 };
const props = new WriterPropertiesBuilder().setCompression(Compression.SNAPPY).build();
const csv = createWriteStream(join(job.outDir, 'posts.csv'));
csv.write(csvHeader(cols));
let batch = [];
let part = 0;
let rows = 0;

function writePart() {
  if (batch.length === 0) return;
  const table = makeTable(
    Object.fromEntries(
      cols.map(([c, t]) => [
        c,
        vectorFromArray(
          batch.map((r) => r[c]),
          new TYPES[t](),
        ),
      ]),
    ),
  );
  const bytes = writeParquet(Table.fromIPCStream(tableToIPC(table, 'stream')), props);
  writeFileSync(join(job.outDir, `part-${String(part).padStart(5, '0')}.parquet`), bytes);
  part += 1;
  batch = [];
}

let n = 0;
for await (const data of pages(job)) {
  let text = '';
  for (const row of data) {
    const flat = flatten(row, job.metrics);
    batch.push(flat);
    text += csvLine(flat, cols);
  }
  if (!csv.write(text)) await new Promise((r) => csv.once('drain', r));
  rows += data.length;
  n += 1;
  if (n % 25 === 0) writePart();
}
writePart();
await new Promise((r) => csv.end(r));
done(rows);
