/** Starts fauxqs (an S3-protocol server) for a test on a free port; not a test file. */
import { type ChildProcess, spawn } from 'node:child_process';
import { CreateBucketCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from './ports';

export interface LocalS3 {
  readonly endpoint: string;
  readonly client: S3Client;
  /** UploadIds of every multipart upload this client created, in order. */
  readonly uploadIds: string[];
  /** Whether the server still accepts parts for this upload (false once aborted or completed). */
  uploadOpen(bucket: string, key: string, uploadId: string): Promise<boolean>;
  createBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** One local S3 server for the calling test file: started before its tests, stopped after them. */
export function useLocalS3(): () => LocalS3 {
  let s3: LocalS3 | undefined;
  beforeAll(async () => {
    s3 = await startLocalS3();
  }, 30_000);
  afterAll(async () => {
    await s3?.stop();
  });
  return () => {
    if (!s3) throw new Error('the local S3 server has not started');
    return s3;
  };
}

export async function startLocalS3(): Promise<LocalS3> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['node_modules/fauxqs/dist/cli.js'], {
    env: { ...process.env, FAUXQS_PORT: String(port), FAUXQS_LOGGER: 'false' },
    stdio: 'ignore',
  });
  const endpoint = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i += 1) {
    try {
      await fetch(endpoint);
      break;
    } catch {
      if (i > 100) throw new Error('fauxqs did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const uploadIds: string[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const output = result.output as { UploadId?: string };
      if (context.commandName === 'CreateMultipartUploadCommand' && output.UploadId)
        uploadIds.push(output.UploadId);
      return result;
    },
    { step: 'initialize', name: 'recordUploadIds' },
  );
  return {
    endpoint,
    client,
    uploadIds,
    async uploadOpen(bucket, key, uploadId) {
      try {
        await client.send(
          new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: 99, Body: 'x' }),
        );
        return true;
      } catch (err: unknown) {
        if (err instanceof Error && err.name === 'NoSuchUpload') return false;
        throw err;
      }
    },
    async createBucket(name) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    },
    async stop() {
      client.destroy();
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill();
        await exited;
      }
    },
  };
}
