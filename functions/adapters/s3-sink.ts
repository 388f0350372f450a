/**
 * The S3 sink (`--bucket NAME`). Parts stream through `@aws-sdk/lib-storage` `Upload` (multipart once
 * an object passes one 8 MiB part, a single PUT below that; aborted on failure so no parts linger);
 * small objects use PutObject. Conditional writes (the window lease, the window manifest) send
 * `If-None-Match: *` or `If-Match: <etag>` and read a 412 (or a 409 from a concurrent conditional
 * write) as "the condition did not hold". A move is a server-side CopyObject then a delete. The `S3Client` is created once per process from the SDK's default chain:
 * region and credentials as usual, endpoint from `AWS_ENDPOINT_URL_S3` (path-style when set, as local
 * S3 servers need).
 */
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { describeError, ExporterError } from '#core/errors';
import type { ObjectWriter, Sink, WrittenObject } from '#core/sink';

let shared: S3Client | undefined;

/** The process-wide client (default credential/region chain; endpoint from AWS_ENDPOINT_URL_S3). */
export function defaultS3Client(): S3Client {
  shared ??= new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3) });
  return shared;
}

export function createS3Sink(bucket: string, client: S3Client = defaultS3Client()): Sink {
  return {
    locate: (key) => `s3://${bucket}/${key}`,
    openWriter: (key, contentType) => uploadWriter(client, bucket, key, contentType),
    async putObject(key, body, contentType) {
      const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
      await wrap(`writing s3://${bucket}/${key}`, () =>
        client.send(
          new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: contentType }),
        ),
      );
      return { key, bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
    },
    async getObject(key) {
      return (await getTagged(client, bucket, key))?.body ?? null;
    },
    getTagged: (key) => getTagged(client, bucket, key),
    async putIf(key, body, contentType, condition) {
      const when = 'ifMatch' in condition ? { IfMatch: condition.ifMatch } : { IfNoneMatch: '*' };
      try {
        const out = await client.send(
          new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType, ...when }),
        );
        return out.ETag ?? '';
      } catch (err: unknown) {
        if (conditionFailed(err)) return null;
        throw writeError(bucket, key, err);
      }
    },
    async moveObject(from, to) {
      const source = `${bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
      await wrap(`copying s3://${bucket}/${from} to ${to}`, () =>
        client.send(new CopyObjectCommand({ Bucket: bucket, Key: to, CopySource: source })),
      );
      await wrap(`deleting s3://${bucket}/${from}`, () =>
        client.send(new DeleteObjectCommand({ Bucket: bucket, Key: from })),
      );
    },
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await wrap(`listing s3://${bucket}/${prefix}`, () =>
          client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token })),
        );
        for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    async deleteObjects(keys) {
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000);
        const out = await wrap(`deleting in s3://${bucket}`, () =>
          client.send(
            new DeleteObjectsCommand({
              Bucket: bucket,
              Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
            }),
          ),
        );
        if (out.Errors?.length) {
          throw new ExporterError(
            'WRITE_FAILED',
            `could not delete ${out.Errors.length} object(s) in s3://${bucket}`,
          );
        }
      }
    },
  };
}

async function getTagged(client: S3Client, bucket: string, key: string) {
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const body = out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
    return { body, etag: out.ETag ?? '' };
  } catch (err: unknown) {
    if (err instanceof NoSuchKey || (err instanceof Error && err.name === 'NoSuchKey')) return null;
    throw new ExporterError('WRITE_FAILED', `reading s3://${bucket}/${key} failed: ${describeError(err)}`, {
      cause: err,
    });
  }
}

/** 412 Precondition Failed, or 409 ConditionalRequestConflict (another conditional write won). */
function conditionFailed(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return (
    err.name === 'PreconditionFailed' ||
    err.name === 'ConditionalRequestConflict' ||
    status === 412 ||
    status === 409
  );
}

function uploadWriter(client: S3Client, bucket: string, key: string, contentType: string): ObjectWriter {
  const body = new PassThrough({ highWaterMark: 1 << 20 });
  const hash = createHash('sha256');
  let bytes = 0;
  const upload = new Upload({
    client,
    params: { Bucket: bucket, Key: key, Body: body, ContentType: contentType },
    partSize: 8 * 1024 * 1024,
    queueSize: 2,
    leavePartsOnError: false,
  });
  const done = upload.done();
  done.catch(() => undefined);
  let failed: unknown = null;
  done.catch((err: unknown) => {
    failed = err;
    body.destroy();
  });

  return {
    async write(chunk) {
      if (failed) throw writeError(bucket, key, failed);
      hash.update(chunk);
      bytes += chunk.byteLength;
      // The stream copies nothing: wait for it to drain before the caller may reuse the chunk.
      const copy = Uint8Array.from(chunk);
      if (!body.write(copy)) {
        await new Promise<void>((res, rej) => {
          const onDrain = () => {
            body.off('close', onClose);
            res();
          };
          const onClose = () => {
            body.off('drain', onDrain);
            rej(writeError(bucket, key, failed));
          };
          body.once('drain', onDrain);
          body.once('close', onClose);
        });
      }
    },
    async close(): Promise<WrittenObject> {
      body.end();
      try {
        await done;
      } catch (err: unknown) {
        throw writeError(bucket, key, err);
      }
      return { key, bytes, sha256: hash.digest('hex') };
    },
    async abort() {
      // Failing the body stream (rather than Upload.abort(), whose promise settles before the
      // multipart upload is aborted) makes lib-storage send AbortMultipartUpload before `done` settles.
      body.destroy(new Error('upload abandoned'));
      await done.catch(() => undefined);
    },
  };
}

function writeError(bucket: string, key: string, cause: unknown): ExporterError {
  return new ExporterError('WRITE_FAILED', `writing s3://${bucket}/${key} failed: ${describeError(cause)}`, {
    cause,
  });
}

async function wrap<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err: unknown) {
    throw new ExporterError('WRITE_FAILED', `${what} failed: ${describeError(err)}`, { cause: err });
  }
}
