import { createHash, randomBytes } from 'node:crypto';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it, vi } from 'vitest';
import { createS3Sink } from '#adapters/s3-sink';
import { useLocalS3 } from '../support/local-s3';

const localS3 = useLocalS3();

describe('S3 sink against a local S3-protocol server', () => {
  it('streams a multipart object and reports bytes and sha256 that match the stored object', async () => {
    await localS3().createBucket('sink-a');
    const sink = createS3Sink('sink-a', localS3().client);
    const w = sink.openWriter('x/part-00000.csv', 'text/csv');
    const chunks = Array.from({ length: 10 }, () => randomBytes(1024 * 1024));
    for (const c of chunks) await w.write(c);
    const written = await w.close();
    const got = await localS3().client.send(
      new GetObjectCommand({ Bucket: 'sink-a', Key: 'x/part-00000.csv' }),
    );
    const body = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
    expect(written.bytes).toBe(10 * 1024 * 1024);
    expect(body.byteLength).toBe(written.bytes);
    expect(createHash('sha256').update(body).digest('hex')).toBe(written.sha256);
  });

  it('aborting a half-written multipart upload leaves no object and no open upload', async () => {
    await localS3().createBucket('sink-b');
    const sink = createS3Sink('sink-b', localS3().client);
    const w = sink.openWriter('x/big.parquet', 'application/octet-stream');
    const before = localS3().uploadIds.length;
    for (let i = 0; i < 10; i += 1) await w.write(randomBytes(1024 * 1024));
    await vi.waitUntil(() => localS3().uploadIds.length > before);
    const uploadId = localS3().uploadIds[before];
    expect(uploadId).toBeDefined();
    expect(await localS3().uploadOpen('sink-b', 'x/big.parquet', uploadId ?? '')).toBe(true);
    await w.abort();
    expect(await localS3().uploadOpen('sink-b', 'x/big.parquet', uploadId ?? '')).toBe(false);
    expect(await sink.list('')).toEqual([]);
  });

  it('puts, gets, lists (sorted, by prefix) and deletes', async () => {
    await localS3().createBucket('sink-c');
    const sink = createS3Sink('sink-c', localS3().client);
    await sink.putObject('p/b', 'B', 'text/plain');
    await sink.putObject('p/a', 'A', 'text/plain');
    await sink.putObject('q/c', 'C', 'text/plain');
    expect(await sink.list('p/')).toEqual(['p/a', 'p/b']);
    expect(new TextDecoder().decode((await sink.getObject('p/a')) ?? new Uint8Array())).toBe('A');
    expect(await sink.getObject('p/none')).toBeNull();
    await sink.deleteObjects(['p/a', 'q/c']);
    expect(await sink.list('')).toEqual(['p/b']);
    expect(sink.locate('p/b')).toBe('s3://sink-c/p/b');
  });
});
