"""pyarrow streaming: every 25 pages the flat rows become a table written to one ParquetWriter
(Snappy) and one CSVWriter."""
import os

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from api import columns, done, flatten, job, pages

TYPES = {"string": pa.string(), "timestamp": pa.string(), "boolean": pa.bool_(), "double": pa.float64()}
schema = pa.schema([(c, TYPES[t]) for c, t in columns(job["metrics"])])
pw = pq.ParquetWriter(os.path.join(job["outDir"], "posts.parquet"), schema, compression="snappy")
cw = pacsv.CSVWriter(os.path.join(job["outDir"], "posts.csv"), schema)
batch, rows, n = [], 0, 0


def flush():
    global batch
    if batch:
        table = pa.Table.from_pylist(batch, schema=schema)
        pw.write_table(table)
        cw.write_table(table)
        batch = []


for data in pages(job):
    batch.extend(flatten(r, job["metrics"]) for r in data)
    rows += len(data)
    n += 1
    if n % 25 == 0:
        flush()
flush()
pw.close()
cw.close()
done(rows)
