"""What the Python peers share (as bench/peers/api.mjs for the Node ones): the job (one JSON argument),
the API's cursor chain over one keep-alive connection with json.loads, and the same flat columns."""
import http.client
import json
import sys
import urllib.parse

job = json.loads(sys.argv[1] if len(sys.argv) > 1 else "{}")

FIXED = [
    ("postId", "string"), ("campaignId", "string"), ("creatorId", "string"), ("instanceId", "string"),
    ("platform", "string"), ("contentType", "string"), ("publishedAt", "timestamp"), ("caption", "string"),
    ("permalink", "string"), ("creator_id", "string"), ("creator_name", "string"),
    ("creator_handle", "string"), ("media_format", "string"), ("media_isVideo", "boolean"),
    ("media_durationSeconds", "double"), ("hashtags", "string"),
]


def columns(metrics):
    return FIXED + [(m, "double") for m in metrics]


def pages(j):
    """Yields each page's parsed `data` list."""
    url = urllib.parse.urlparse(j["baseUrl"])
    conn = http.client.HTTPConnection(url.hostname, url.port)
    conn.request("POST", "/oauth/token", json.dumps({"clientId": j["clientId"], "clientSecret": j["clientSecret"]}),
                 {"content-type": "application/json"})
    res = conn.getresponse()
    jwt = json.loads(res.read())["jwt"]
    base = (f"/v2/posts/performance?startDate={j['startDate']}&endDate={j['endDate']}&"
            + "&".join(f"metrics={m}" for m in j["metrics"]) + f"&limit={j['pageSize']}")
    cursor = None
    while True:
        path = base if cursor is None else base + "&nextCursor=" + urllib.parse.quote(cursor, safe="")
        conn.request("GET", path, headers={"authorization": f"Bearer {jwt}"})
        res = conn.getresponse()
        body = json.loads(res.read())
        if res.status != 200:
            raise RuntimeError(f"page: {res.status}")
        yield body["data"]
        cursor = body.get("nextCursor")
        if not cursor:  # the last page carries no cursor, or an empty one
            break


def flatten(row, metrics):
    creator = row.get("creator") or {}
    media = row.get("media") or {}
    tags = row.get("hashtags")
    values = row.get("metrics") or {}
    out = {
        "postId": row.get("postId"), "campaignId": row.get("campaignId"), "creatorId": row.get("creatorId"),
        "instanceId": row.get("instanceId"), "platform": row.get("platform"),
        "contentType": row.get("contentType"), "publishedAt": row.get("publishedAt"),
        "caption": row.get("caption"), "permalink": row.get("permalink"), "creator_id": creator.get("id"),
        "creator_name": creator.get("name"), "creator_handle": creator.get("handle"),
        "media_format": media.get("format"), "media_isVideo": media.get("isVideo"),
        "media_durationSeconds": media.get("durationSeconds"),
        "hashtags": ",".join(tags) if isinstance(tags, list) else None,
    }
    for m in metrics:
        v = values.get(m)
        out[m] = None if v is None else float(v)
    return out


def done(rows):
    print(json.dumps({"rows": rows}), flush=True)
