/**
 * Two `report-exporter run`s of one window started together (real processes), into one folder and
 * into one S3 bucket. The S3 half runs on moto_server: it honours `If-None-Match: *` and `If-Match`
 * on PutObject, which the lease relies on (fauxqs, the S3 server of the other tests, ignores both).
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '#simulator/server';
import { leftovers, readManifest, windowProblems } from '../support/consistency';
import { type Exited, localAws } from '../support/run-cli';
import { hasMoto, type LocalServer, needMoto, startMoto } from '../support/servers';
import { startDailyRun, WINDOW_END, dailyWindow as window, writeConfig } from './cli-runs';

let sim: Simulator;
let dir: string;
let moto: LocalServer | undefined;
beforeAll(async () => {
  sim = await startSimulator({ latencyMs: 20, scale: { postsPerDay: 3000 } });
  dir = await mkdtemp(join(tmpdir(), 'concurrent-'));
  await writeConfig(dir, sim);
  if (hasMoto) moto = await startMoto();
}, 60_000);
afterAll(async () => {
  await Promise.all([sim?.close(), moto?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

async function twoAtOnce(target: string[], extra: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const a = startDailyRun(dir, sim, [...target, ...extra], env);
  const b = startDailyRun(dir, sim, [...target, ...extra], env);
  return Promise.all([a.done, b.done]);
}

async function runIds(out: string): Promise<string[]> {
  const names = await readdir(join(out, `exports/daily/_manifests/dt=${WINDOW_END}/runs`)).catch(() => []);
  return names.map((n) => n.replace(/\.json$/, ''));
}

/** Both finished; one of them waited for the other, named in its log; the window is consistent. */
async function expectOneAfterTheOther(results: Exited[], out: string) {
  expect(results.map((r) => r.code)).toEqual([0, 0]);
  const ids = await runIds(out);
  expect(ids).toHaveLength(2);
  const waited = results.filter((r) => /waiting up to 30 s for the window/.test(r.stderr));
  expect(waited).toHaveLength(1);
  const holder = /heldBy=([0-9a-f-]{36})/.exec(waited[0]?.stderr ?? '')?.[1];
  expect(ids).toContain(holder);
  const manifest = await readManifest(window(out));
  expect(manifest?.status).toBe('succeeded');
  expect(ids.filter((id) => id !== holder)).toEqual([manifest?.runId]); // the waiter wrote last
  expect(await windowProblems(window(out))).toEqual([]);
}

/** With no waiting, exactly one stops before writing, naming the other run and since when. */
async function expectOneStopped(results: Exited[], out: string) {
  const stopped = results.filter((r) => r.code === 1);
  expect(results.map((r) => r.code).sort()).toEqual([0, 1]);
  const ids = await runIds(out);
  expect(ids).toHaveLength(1);
  expect(stopped[0]?.stderr).toMatch(
    new RegExp(
      `is being written by run ${ids[0]} \\(since \\d{4}-\\d{2}-\\d{2}T[^ ]+ on host [^,]+, pid \\d+;`,
    ),
  );
  expect(await windowProblems(window(out))).toEqual([]);
}

describe('two runs of one window at once', () => {
  it('into one folder: the second waits for the first, then rewrites the window; the output agrees', async () => {
    const out = join(dir, 'out-wait');
    await expectOneAfterTheOther(await twoAtOnce(['--out', out]), out);
    expect(await leftovers(window(out))).toEqual([]);
  }, 120_000);

  it('into one folder with --lease-wait 0: one stops with a message naming the other run', async () => {
    const out = join(dir, 'out-stop');
    await expectOneStopped(await twoAtOnce(['--out', out], ['--lease-wait', '0']), out);
  }, 120_000);

  describe('on S3 (moto_server, which honours If-None-Match / If-Match)', () => {
    const s3env = () => localAws({ AWS_ENDPOINT_URL_S3: moto?.endpoint ?? '' });
    const client = () =>
      new S3Client({
        endpoint: moto?.endpoint ?? '',
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
    /** Copies the bucket into a folder, so the same consistency check applies. */
    async function mirror(bucket: string): Promise<string> {
      const out = join(dir, `mirror-${bucket}`);
      const c = client();
      const list = await c.send(new ListObjectsV2Command({ Bucket: bucket }));
      for (const o of list.Contents ?? []) {
        const got = await c.send(new GetObjectCommand({ Bucket: bucket, Key: o.Key ?? '' }));
        const path = join(out, o.Key ?? '');
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, (await got.Body?.transformToByteArray()) ?? new Uint8Array());
      }
      c.destroy();
      return out;
    }

    it('the second waits for the first; the bucket agrees with its manifest', async (ctx) => {
      needMoto(ctx);
      await client().send(new CreateBucketCommand({ Bucket: 'wait' }));
      const results = await twoAtOnce(['--bucket', 'wait'], [], s3env());
      const out = await mirror('wait');
      await expectOneAfterTheOther(results, out);
      expect(await leftovers(window(out))).toEqual([]);
    }, 120_000);

    it('with --lease-wait 0 one stops, naming the other run', async (ctx) => {
      needMoto(ctx);
      await client().send(new CreateBucketCommand({ Bucket: 'stop' }));
      const results = await twoAtOnce(['--bucket', 'stop'], ['--lease-wait', '0'], s3env());
      await expectOneStopped(results, await mirror('stop'));
    }, 120_000);
  });
});
