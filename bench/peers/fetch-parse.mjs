/** Bare fetch+parse: the cursor chain through the global fetch and JSON.parse, rows dropped. */
import { done, job, pages } from './api.mjs';

let rows = 0;
for await (const data of pages(job)) rows += data.length;
done(rows);
