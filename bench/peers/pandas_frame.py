"""pandas: every page's flat rows into one DataFrame, then to_parquet (pyarrow, Snappy) and to_csv."""
import os

import pandas as pd

from api import done, flatten, job, pages

rows = []
for data in pages(job):
    rows.extend(flatten(r, job["metrics"]) for r in data)
df = pd.DataFrame(rows)
df.to_parquet(os.path.join(job["outDir"], "posts.parquet"), compression="snappy", index=False)
df.to_csv(os.path.join(job["outDir"], "posts.csv"), index=False)
done(len(rows))
