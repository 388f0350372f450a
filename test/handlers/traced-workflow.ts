/**
 * The deployed path for end-to-end tests: the Lambda bundles `cdk synth` wrote for a template, and one
 * execution of its state machine (./asl.ts) over them with every state's payload, every Map object and
 * every log line kept as text, to assert on and to scan for secrets. Not a test file.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import type { Template } from 'aws-cdk-lib/assertions';
import type { LocalS3 } from '../support/local-s3';
import { type Definition, type Invoke, type MapIo, runStates } from './asl';

export type Handler = (event: unknown, context: { getRemainingTimeInMillis(): number }) => Promise<unknown>;
export type Step = 'plan' | 'export' | 'finalize';
export type Bundles = Record<Step, Handler>;

const DESCRIPTIONS: Record<Step, string> = {
  plan: 'plan a run',
  export: 'export one report',
  finalize: 'manifest, summary email',
};

/** Each function's bundle folder in `outdir`, found by its description in the template. */
export function bundleDirs(template: Template, outdir: string): Record<Step, string> {
  const resources = (
    template.toJSON() as {
      Resources: Record<
        string,
        { Type: string; Properties: { Description?: string; Code?: { S3Key: string } } }
      >;
    }
  ).Resources;
  const dirOf = (step: Step) => {
    const fn = Object.values(resources).find(
      (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description?.includes(DESCRIPTIONS[step]),
    );
    return join(outdir, `asset.${String(fn?.Properties.Code?.S3Key).replace(/\.zip$/, '')}`);
  };
  return { plan: dirOf('plan'), export: dirOf('export'), finalize: dirOf('finalize') };
}

/** The handler of a bundle folder; `fresh` imports a new module instance (a cold container). */
export async function loadBundle(dir: string, fresh?: string): Promise<Handler> {
  const href = `${pathToFileURL(join(dir, 'index.mjs')).href}${fresh ? `?${fresh}` : ''}`;
  return ((await import(href)) as { handler: Handler }).handler;
}

/** The three handlers of the bundle folders. */
export async function loadBundles(dirs: Record<Step, string>): Promise<Bundles> {
  return {
    plan: await loadBundle(dirs.plan),
    export: await loadBundle(dirs.export),
    finalize: await loadBundle(dirs.finalize),
  };
}

/** An S3 bucket of the local server, as the tests read it. */
export function bucketOf(s3: LocalS3, bucket: string) {
  const getText = async (key: string): Promise<string> => {
    const out = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return (await out.Body?.transformToString('utf8')) ?? '';
  };
  return {
    getText,
    /** Every object below `prefix`, by `s3://` location → text. */
    async objectsBelow(prefix: string): Promise<Record<string, string>> {
      const texts: Record<string, string> = {};
      const out = await s3.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      for (const o of out.Contents ?? []) texts[`s3://${bucket}/${o.Key}`] = await getText(o.Key ?? '');
      return texts;
    },
    async putText(key: string, body: string): Promise<void> {
      await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    },
  };
}

export interface Traced {
  /** name → text of everything the run passed or printed: states, Map items and results, logs. */
  readonly texts: Record<string, string>;
  readonly manifestKey: string | null;
  readonly error: unknown;
  readonly exportSteps: number;
  /** How many Export containers the run used (1 unless `coldExport` is given). */
  readonly exportContainers: number;
}

export interface TraceOptions {
  readonly definition: Definition;
  readonly bundles: Bundles;
  readonly bucket: ReturnType<typeof bucketOf>;
  readonly input: { readonly scheduleId: string; readonly scheduledTime: string };
  /** What `getRemainingTimeInMillis` answers in every step (a small budget makes reports continue). */
  readonly budgetMs: number;
  /**
   * Run each Map item's Export steps in a container of its own, as on AWS at the Map's concurrency:
   * `coldExport` imports a fresh instance of the Export bundle (its module state — API client, token,
   * remembered token failures — starts empty), called once per item. Default: every item shares
   * `bundles.export`, as one warm container would.
   */
  readonly coldExport?: () => Promise<Handler>;
}

/** The Map item an Export step belongs to (its task), so its continuations stay in its container. */
function itemOf(input: unknown): string {
  const task = (input as { task?: { runId?: string; reportId?: string; window?: { end?: string } } }).task;
  return `${task?.runId}/${task?.window?.end}/${task?.reportId}`;
}

/** One workflow execution, every payload and log line kept as text; an error is returned, not thrown. */
export async function traceWorkflow(o: TraceOptions): Promise<Traced> {
  const texts: Record<string, string> = {};
  let n = 0;
  let exportSteps = 0;
  let manifestKey: string | null = null;
  const context = { getRemainingTimeInMillis: () => o.budgetMs };
  const containers = new Map<string, Promise<Handler>>();
  const handlerFor = (name: Step, input: unknown): Promise<Handler> | Handler => {
    if (name !== 'export' || !o.coldExport) return o.bundles[name];
    const item = itemOf(input);
    const container = containers.get(item) ?? o.coldExport();
    containers.set(item, container);
    return container;
  };
  const invoke: Invoke = async (resource, input) => {
    const name = resource.includes('Plan') ? 'plan' : resource.includes('Finalize') ? 'finalize' : 'export';
    if (name === 'export') exportSteps += 1;
    const i = n++; // taken before the call: the Map's items run at once
    texts[`state ${i} ${name} input`] = JSON.stringify(input);
    const handler = await handlerFor(name, input);
    const out = await handler(JSON.parse(JSON.stringify(input)), context);
    texts[`state ${i} ${name} output`] = JSON.stringify(out);
    if (name === 'finalize') manifestKey = (out as { manifestKey: string }).manifestKey;
    return JSON.parse(JSON.stringify(out));
  };
  const io: MapIo = {
    getObject: async (_bucket, key) => o.bucket.getText(key),
    putObject: async (_bucket, key, body) => {
      texts[`map object ${key}`] = body;
      await o.bucket.putText(key, body);
    },
  };
  const logs: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    logs.push(String(chunk));
    return true;
  };
  const [out, err] = [process.stdout.write.bind(process.stdout), process.stderr.write.bind(process.stderr)];
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  let error: unknown = null;
  try {
    await runStates(o.definition, o.input, invoke, {}, { io });
  } catch (e: unknown) {
    error = e;
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  texts.logs = logs.join('');
  return { texts, manifestKey, error, exportSteps, exportContainers: o.coldExport ? containers.size : 1 };
}
