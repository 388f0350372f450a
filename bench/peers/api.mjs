/**
 * What every Node peer of the bench shares: the job (one JSON argument), the API's cursor chain with
 * the global fetch and JSON.parse (token first, then `posts/performance` page by page), the flat
 * columns a data engineer would write (nested objects to `a_b` columns, hashtags joined, one column
 * per metric) and a plain CSV line. The Python peers do the same in api.py.
 */
export const job = JSON.parse(process.argv[2] ?? '{}');

/** The report's rows, one parsed page (`data` array) at a time. */
export async function* pages({ baseUrl, clientId, clientSecret, startDate, endDate, metrics, pageSize }) {
  const auth = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId, clientSecret }),
  });
  if (!auth.ok) throw new Error(`token: ${auth.status}`);
  const { jwt } = await auth.json();
  const base = `${baseUrl}/v2/posts/performance?startDate=${startDate}&endDate=${endDate}&${metrics
    .map((m) => `metrics=${m}`)
    .join('&')}&limit=${pageSize}`;
  let cursor = null;
  do {
    const url = cursor === null ? base : `${base}&nextCursor=${encodeURIComponent(cursor)}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${jwt}` } });
    if (!res.ok) throw new Error(`page: ${res.status}`);
    const body = JSON.parse(await res.text());
    yield body.data;
    // the last page carries no cursor, or an empty one
    cursor = body.nextCursor || null;
  } while (cursor !== null);
}

const FIXED = [
  ['postId', 'string'],
  ['campaignId', 'string'],
  ['creatorId', 'string'],
  ['instanceId', 'string'],
  ['platform', 'string'],
  ['contentType', 'string'],
  ['publishedAt', 'timestamp'],
  ['caption', 'string'],
  ['permalink', 'string'],
  ['creator_id', 'string'],
  ['creator_name', 'string'],
  ['creator_handle', 'string'],
  ['media_format', 'string'],
  ['media_isVideo', 'boolean'],
  ['media_durationSeconds', 'double'],
  ['hashtags', 'string'],
];

/** The flat columns and their types: the fixed ones, then one double per metric. */
export const columns = (metrics) => [...FIXED, ...metrics.map((m) => [m, 'double'])];

/** One API row as a flat object of those columns (null where absent). */
export function flatten(row, metrics) {
  const out = {
    postId: row.postId ?? null,
    campaignId: row.campaignId ?? null,
    creatorId: row.creatorId ?? null,
    instanceId: row.instanceId ?? null,
    platform: row.platform ?? null,
    contentType: row.contentType ?? null,
    publishedAt: row.publishedAt ?? null,
    caption: row.caption ?? null,
    permalink: row.permalink ?? null,
    creator_id: row.creator?.id ?? null,
    creator_name: row.creator?.name ?? null,
    creator_handle: row.creator?.handle ?? null,
    media_format: row.media?.format ?? null,
    media_isVideo: row.media?.isVideo ?? null,
    media_durationSeconds: row.media?.durationSeconds ?? null,
    hashtags: Array.isArray(row.hashtags) ? row.hashtags.join(',') : null,
  };
  for (const m of metrics) out[m] = row.metrics?.[m] ?? null;
  return out;
}

const quote = (v) => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** The CSV header line of those columns. */
export const csvHeader = (cols) => `${cols.map(([c]) => c).join(',')}\n`;

/** One flat row as a CSV line (RFC 4180 quoting). */
export const csvLine = (flat, cols) => `${cols.map(([c]) => quote(flat[c])).join(',')}\n`;

/** The one JSON line every peer prints at its end. */
export function done(rows) {
  process.stdout.write(`${JSON.stringify({ rows })}\n`);
}
