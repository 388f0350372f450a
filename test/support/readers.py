"""Reads exports with the readers data engineers use, each with the options docs/export.md gives it.

Not a test file: test/e2e/independent-readers.test.ts runs it with the readers' venv and compares what
each reader saw. Input (stdin, JSON): {"datasets": [{"name", "columns": [{"name", "type"}],
"parquet_root", "parquet_files", "csv_files", "jsonl_files"}]}. Output (stdout, JSON):
{"versions": {...}, "datasets": {name: {reader: {"rows": n, "values": [[cell, ...], ...]}
| {"error": "..."}}}}, each row's cells in the model's column order as canonical text (None = null),
rows sorted, so two readers that saw the same data give equal lists.
"""

import datetime as dt
import json
import math
import sys
import traceback

import duckdb
import fastparquet
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)


def is_null(v):
    if v is None or v is pd.NA or v is pd.NaT:
        return True
    return isinstance(v, float) and math.isnan(v)


def micros(v):
    if isinstance(v, pd.Timestamp):
        return str(v.value // 1000)
    if isinstance(v, str):
        v = dt.datetime.fromisoformat(v.replace("Z", "+00:00"))
    if v.tzinfo is None:
        v = v.replace(tzinfo=dt.timezone.utc)
    return str((v - EPOCH) // dt.timedelta(microseconds=1))


def canonical(kind, v):
    """One cell as text by the column's model type; a CSV's empty text and null are the same."""
    if is_null(v):
        return None
    if kind == "string":
        s = v if isinstance(v, str) else str(v)
        return None if s == "" else s
    if kind == "int64":
        return str(int(v))
    if kind == "double":
        return repr(float(v))
    if kind == "boolean":
        return str(v).lower()
    if kind == "date":
        return v[:10] if isinstance(v, str) else v.isoformat()[:10]
    if kind == "timestamp":
        return micros(v)
    raise ValueError(f"unknown type {kind}")


def table(columns, records):
    """Rows (dicts by column name) as sorted lists of canonical cells in model order."""
    rows = [[canonical(c["type"], r.get(c["name"])) for c in columns] for r in records]
    return sorted(rows, key=lambda row: json.dumps(row))


def newest_part(d):
    """A part of the newest partition: the widest model (parquet_files are in window order)."""
    return d["parquet_files"][-1]


def pyarrow_dataset(d):
    # docs/export.md's recipe: the newest part's schema plus the hive partition column
    import pyarrow.parquet as pq

    schema = pq.read_schema(newest_part(d)).append(pa.field("dt", pa.string()))
    dataset = ds.dataset(d["parquet_root"], format="parquet", partitioning="hive", schema=schema)
    return dataset.to_table().to_pylist()


def polars_scan(d):
    # docs/export.md's recipe: the newest part's schema, older files' missing columns inserted
    lf = pl.scan_parquet(
        d["parquet_root"] + "/**/*.parquet",
        hive_partitioning=True,
        schema=pl.read_parquet_schema(newest_part(d)),
        missing_columns="insert",
    )
    return lf.collect().to_dicts()


def duck(sql):
    con = duckdb.connect()
    try:
        rel = con.sql(sql)
        names = rel.columns
        return [dict(zip(names, row)) for row in rel.fetchall()]
    finally:
        con.close()


def lit(paths):
    return "[" + ",".join("'" + p.replace("'", "''") + "'" for p in paths) + "]"


def duckdb_parquet(d):
    glob = d["parquet_root"].replace("'", "''") + "/**/*.parquet"
    return duck(f"SELECT * FROM read_parquet('{glob}', hive_partitioning = true, union_by_name = true)")


def duckdb_csv(d):
    return duck(
        f"SELECT * FROM read_csv({lit(d['csv_files'])}, header = true, all_varchar = true, "
        "union_by_name = true, hive_partitioning = false)"
    )


def duckdb_jsonl(d):
    return duck(
        f"SELECT * FROM read_json({lit(d['jsonl_files'])}, format = 'newline_delimited', "
        "union_by_name = true, hive_partitioning = false)"
    )


def fastparquet_files(d):
    frames = [fastparquet.ParquetFile(f).to_pandas() for f in d["parquet_files"]]
    if not frames:
        return []
    frame = pd.concat(frames, ignore_index=True).astype(object)
    return frame.to_dict(orient="records")


READERS = {
    "pyarrow.dataset (hive, newest part's schema)": (pyarrow_dataset, "parquet_files"),
    "polars.scan_parquet (hive, newest part's schema, missing_columns=insert)": (polars_scan, "parquet_files"),
    "duckdb read_parquet (hive, union_by_name)": (duckdb_parquet, "parquet_files"),
    "duckdb read_csv (union_by_name)": (duckdb_csv, "csv_files"),
    "duckdb read_json (union_by_name)": (duckdb_jsonl, "jsonl_files"),
    "fastparquet": (fastparquet_files, "parquet_files"),
}


def main():
    spec = json.load(sys.stdin)
    out = {}
    for d in spec["datasets"]:
        seen = {}
        for name, (read, needs) in READERS.items():
            if not d.get(needs):
                continue
            try:
                records = read(d)
                seen[name] = {"rows": len(records), "values": table(d["columns"], records)}
            except Exception:
                seen[name] = {"error": traceback.format_exc(limit=3)}
        out[d["name"]] = seen
    versions = {
        "pyarrow": pa.__version__,
        "polars": pl.__version__,
        "duckdb": duckdb.__version__,
        "fastparquet": fastparquet.__version__,
        "pandas": pd.__version__,
    }
    json.dump({"versions": versions, "datasets": out}, sys.stdout)


if __name__ == "__main__":
    main()
