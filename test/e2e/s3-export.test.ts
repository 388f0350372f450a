import { createHash, randomBytes } from 'node:crypto';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Sink } from '#adapters/s3-sink';
import type { ApiRow, ReportingApi } from '#core/api/types';
import { silentLog } from '#core/log';
import { ManifestSchema } from '#core/manifest';
import { runSchedule } from '#core/run/run';
import type { Sink } from '#core/sink';
import { pagedApi, postRows, postsConfig } from '../core/run/fakes';
import { type LocalS3, startLocalS3 } from '../support/local-s3';

const REQUEST = { scheduleId: 'daily', scheduledTime: '2026-11-23T08:00:00Z' };
const POSTS = 'exports/daily/posts/';
/** Where this run (`run`) stages the posts report's CSV parts before committing them. */
const STAGED_CSV = 'exports/daily/_staging/dt=2026-11-22/run/posts/csv/';
const config = postsConfig(`      - id: creators
        route: creators/performance
        metrics: [likes]
`);

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
}, 30_000);
afterAll(async () => {
  await s3?.stop();
});

/** Serves `posts` to the posts report and 50 small rows to every other report. */
function api(posts: readonly ApiRow[], pageSize: number): ReportingApi {
  const big = pagedApi(posts, pageSize);
  const small = pagedApi(postRows(50, 9), 20);
  return {
    pages: (req, o) => (req.route === 'posts/performance' ? big.pages(req, o) : small.pages(req, o)),
    close: async () => {},
  };
}

async function run(sink: Sink, rows: readonly ApiRow[], pageSize = 500, maxRowsPerPart = 1000) {
  const { manifest } = await runSchedule(
    { ...config, output: { ...config.output, maxRowsPerPart } },
    REQUEST,
    {
      api: api(rows, pageSize),
      sink,
      mailer: null,
      log: silentLog,
      now: () => new Date(),
      newRunId: () => 'run',
      tuning: { rowGroupRows: 500 },
    },
  );
  return manifest;
}

describe('export to S3 (local S3-protocol server)', () => {
  it('writes parts, _SUCCESS and the manifest last; manifest bytes/sha256 match the objects', async () => {
    await s3.createBucket('exp-a');
    const sink = createS3Sink('exp-a', s3.client);
    const manifest = await run(sink, postRows(2500));
    expect(manifest.status).toBe('succeeded');
    const stored = ManifestSchema.parse(
      JSON.parse(
        new TextDecoder().decode(
          (await sink.getObject('exports/daily/_manifests/dt=2026-11-22/manifest.json')) ?? new Uint8Array(),
        ),
      ),
    );
    expect(stored.reports.map((r) => r.rowCount)).toEqual([2500, 50]);
    for (const f of stored.reports.flatMap((r) => r.files)) {
      const got = await s3.client.send(new GetObjectCommand({ Bucket: 'exp-a', Key: f.key }));
      const body = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
      expect(body.byteLength).toBe(f.bytes);
      expect(createHash('sha256').update(body).digest('hex')).toBe(f.sha256);
    }
    expect(await sink.list(`${POSTS}csv/`)).toEqual([
      `${POSTS}csv/dt=2026-11-22/_SUCCESS`,
      `${POSTS}csv/dt=2026-11-22/part-00000.csv`,
      `${POSTS}csv/dt=2026-11-22/part-00001.csv`,
      `${POSTS}csv/dt=2026-11-22/part-00002.csv`,
    ]);
  });

  it('a re-run with fewer rows replaces the partition and leaves no stale part', async () => {
    const sink = createS3Sink('exp-a', s3.client);
    const manifest = await run(sink, postRows(300, 2));
    expect(manifest.reports[0]?.rowCount).toBe(300);
    expect(await sink.list(`${POSTS}parquet/`)).toEqual([
      `${POSTS}parquet/dt=2026-11-22/_SUCCESS`,
      `${POSTS}parquet/dt=2026-11-22/part-00000.parquet`,
    ]);
  });

  it('a failure mid-upload leaves no _SUCCESS, aborts the multipart upload, and the other report still completes', async () => {
    await s3.createBucket('exp-b');
    const real = createS3Sink('exp-b', s3.client);
    // 3000 rows × ~4 KB of incompressible text: the CSV part passes the 8 MiB multipart threshold
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      postId: `p${i}`,
      blob: randomBytes(2048).toString('hex'),
      metrics: { likes: i },
    }));
    let csvBytes = 0;
    const failing: Sink = {
      ...real,
      openWriter(key, type) {
        const w = real.openWriter(key, type);
        if (!key.startsWith(STAGED_CSV)) return w;
        return {
          async write(chunk) {
            csvBytes += chunk.byteLength;
            if (csvBytes > 10 * 1024 * 1024) throw new Error('connection reset by peer');
            await w.write(chunk);
          },
          close: () => w.close(),
          abort: () => w.abort(),
        };
      },
    };
    const before = s3.uploadIds.length;
    const manifest = await run(failing, rows, 250, 100_000);
    expect(manifest.status).toBe('partial');
    expect(manifest.reports.map((r) => [r.reportId, r.status])).toEqual([
      ['posts', 'failed'],
      ['creators', 'succeeded'],
    ]);
    expect(manifest.reports[0]?.error).toMatch(/connection reset/);
    const keys = await real.list(POSTS);
    expect(keys.filter((k) => k.endsWith('_SUCCESS'))).toEqual([]);
    expect(keys.filter((k) => k.endsWith('.csv'))).toEqual([]);
    expect(await real.list('exports/daily/_staging/')).toEqual([]);
    const started = s3.uploadIds.slice(before);
    expect(started.length).toBeGreaterThan(0);
    for (const id of started) {
      expect(await s3.uploadOpen('exp-b', `${STAGED_CSV}part-00000.csv`, id)).toBe(false);
    }
    expect(await real.list('exports/daily/creators/csv/')).toContain(
      'exports/daily/creators/csv/dt=2026-11-22/_SUCCESS',
    );
  });
});
