/**
 * The encoder worker pool: `EncoderHost` (Parquet/CSV encoding of row groups) in `worker_threads`
 * workers, so that, where the host has cores to spare, the thread that fetches and parses pages runs
 * no encode. Used by the CLI and the Export Lambda (`sharedEncoderPool()`).
 *
 * - Size: one worker per core beyond two (CPU count − 2, at most 4); a report's stream stays on one
 *   worker (it holds that report's row group), streams are spread round-robin. With no worker (two
 *   cores or fewer: a 2-core machine, an Export Lambda) the pool encodes on the calling thread:
 *   handing every slice to a worker costs ~25 % more CPU than the encoding it moves (a structured
 *   clone each way, a second heap to collect), which pays only where a core would
 *   otherwise sit idle; on two cores the second is shared with everything else on the host — measured
 *   through the CLI, encoding in place was faster at every size and no slower at 100 ms a page
 *   (docs/performance.md, "Where the encoder runs"). `REPORT_EXPORTER_ENCODER_WORKERS` (0–4) overrides
 *   the count.
 * - Bounded: each worker's heap is capped (`resourceLimits`), and a stream has at most
 *   `MAX_QUEUED_APPENDS` batches waiting in the worker; beyond that `append` waits (back-pressure up to
 *   the page fetcher). Encoded bytes come back as transferred buffers (not copied).
 * - The worker entry is this module itself, re-entered with `isMainThread` false: from source (CLI,
 *   tests) it is loaded through tsx, in the one-file Lambda bundle it is the bundle file.
 * - The process is kept alive only while a worker has calls in flight (the workers are unref'd; a
 *   timer holds the loop meanwhile). A worker that dies (e.g. at its heap limit) fails its streams'
 *   calls with `ENCODE_FAILED` and is replaced for new streams.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { describeError, ExporterError } from '#core/errors';
import type { EncodedBytes, Encoder, EncoderRequest, EncoderStream } from '#core/export/encoder';
import { EncoderHost, inlineEncoder } from '#core/export/encoder';

const WORKER_MARK = 'report-exporter-encoder';
/** The worker's own bundle beside the CLI's (scripts/build-cli.mjs). */
const WORKER_FILE = 'encoder-worker.mjs';
/**
 * Batches (≈ 1,000-row slices) a stream may have queued in its worker before `append` waits: more than
 * a whole row group's worth (25 at the default 25,000 rows), so the page consumer goes on filling the
 * next group while the worker encodes the previous one instead of stopping — and with it the read-ahead
 * and the API's answers — until the encode ends. Queued slices are serialized messages, ~0.3 MB each.
 */
export const MAX_QUEUED_APPENDS = 32;
/** Old-generation cap of each worker's heap (a 25k-row group of the bench workload needs ~50 MB). */
export const WORKER_HEAP_MB = 256;
/**
 * Young-generation cap of each worker's heap. V8's default lets the worker's young generation grow to
 * ~48 MB while slices arrive; everything the worker allocates there is short-lived (a slice is
 * appended, a group's columns are encoded and transferred), so a small one costs a few more scavenges
 * and saves ~35 MB of peak RSS (docs/performance.md, "Memory").
 */
export const WORKER_YOUNG_MB = 6;

interface Reply {
  readonly seq: number;
  readonly out?: EncodedBytes;
  readonly error?: string;
}

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[WORKER_MARK] === true) serve();

/** Worker side: answers each request in order, transferring the encoded buffers. */
function serve(): void {
  const port = parentPort;
  if (port === null) return;
  const host = new EncoderHost();
  port.on('message', ({ seq, req }: { seq: number; req: EncoderRequest | 'stop' }) => {
    // stop: let the thread end by itself (so a --cpu-prof profile of it is written)
    if (req === 'stop') return port.close();
    try {
      const out = host.handle(req);
      port.postMessage({ seq, out } satisfies Reply, out ? transferables(out) : []);
    } catch (err: unknown) {
      port.postMessage({ seq, error: describeError(err) } satisfies Reply);
    }
  });
}

function transferables(out: EncodedBytes): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const chunks of Object.values(out))
    for (const c of chunks ?? []) if (c.buffer instanceof ArrayBuffer) buffers.add(c.buffer);
  return [...buffers];
}

/**
 * How to start this module as a worker: the CLI's bundle has it as `encoder-worker.mjs` beside it
 * (scripts/build-cli.mjs: the worker loads the encoder alone, not the whole CLI); a one-file bundle (a
 * Lambda) is re-entered as it is; a `.ts` source is loaded through tsx.
 */
function startWorker(resourceLimits: {
  maxOldGenerationSizeMb: number;
  maxYoungGenerationSizeMb: number;
}): Worker {
  const self = import.meta.url;
  const options = { workerData: { [WORKER_MARK]: true }, resourceLimits };
  // The worker's young generation starts at its full size (a third of it per semi-space: V8 splits it
  // into two semi-spaces and a large-object space), so it never waits on V8's growth factor, which the
  // CLI sets to 1 to cap the main thread's (bin/young-generation.mjs). The flag is per process and read
  // when an isolate is made: the main thread's heap is long made.
  setFlagsFromString(`--min-semi-space-size=${Math.floor(resourceLimits.maxYoungGenerationSizeMb / 3)}`);
  if (!/\.[cm]?ts$/.test(new URL(self).pathname)) {
    const own = new URL(`./${WORKER_FILE}`, self);
    return new Worker(own.href !== self && existsSync(own) ? own : new URL(self), options);
  }
  const tsx = pathToFileURL(
    createRequire(self)
      .resolve('tsx/esm/api')
      .replace(/index\.cjs$/, 'index.mjs'),
  ).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(self)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

class PoolWorker {
  private readonly worker: Worker;
  private readonly calls = new Map<
    number,
    { resolve: (out: EncodedBytes) => void; reject: (e: Error) => void }
  >();
  private seq = 0;
  /** Keeps the process alive while calls are in flight (the worker itself is always unref'd). */
  private keepAlive: NodeJS.Timeout | undefined;
  private exited = false;
  dead = false;

  constructor(heapMb: number) {
    this.worker = startWorker({ maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: WORKER_YOUNG_MB });
    this.worker.on('message', (reply: Reply) => this.settle(reply));
    this.worker.on('error', (err: unknown) => this.fail(describeError(err)));
    this.worker.on('exit', (code) => {
      this.exited = true;
      this.fail(`the encoder worker exited (code ${code})`);
    });
    // after the listeners: adding a 'message' listener refs the worker's port again
    this.worker.unref();
  }

  call(req: EncoderRequest): Promise<EncodedBytes> {
    if (this.dead) return Promise.reject(encodeFailed('the encoder worker is gone'));
    this.seq += 1;
    const seq = this.seq;
    this.keepAlive ??= setInterval(() => undefined, 3_600_000);
    return new Promise((resolve, reject) => {
      this.calls.set(seq, { resolve, reject });
      this.worker.postMessage({ seq, req });
    });
  }

  /** Asks the worker to end by itself; terminates it if it has not within a second. */
  async terminate(): Promise<void> {
    this.dead = true;
    if (this.exited) return;
    // the process must stay alive until the worker has exited, or the caller's await never settles
    const alive = setInterval(() => undefined, 3_600_000);
    try {
      const exited = new Promise((resolve) => this.worker.once('exit', resolve));
      this.worker.postMessage({ seq: 0, req: 'stop' });
      const timer = setTimeout(() => void this.worker.terminate(), 1_000);
      await exited;
      clearTimeout(timer);
    } finally {
      clearInterval(alive);
      this.idle();
    }
  }

  private idle(): void {
    clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }

  private settle(reply: Reply): void {
    const call = this.calls.get(reply.seq);
    if (call === undefined) return;
    this.calls.delete(reply.seq);
    if (this.calls.size === 0) this.idle();
    if (reply.error !== undefined) call.reject(encodeFailed(reply.error));
    else call.resolve(reply.out ?? {});
  }

  private fail(reason: string): void {
    if (this.dead && this.calls.size === 0) return;
    this.dead = true;
    for (const call of this.calls.values()) call.reject(encodeFailed(reason));
    this.calls.clear();
    this.idle();
  }
}

function encodeFailed(reason: string): ExporterError {
  return new ExporterError('ENCODE_FAILED', `encoding a row group failed: ${reason}`);
}

export interface EncoderPoolOptions {
  /** Workers; default `defaultWorkerCount()`. 0: encode on the calling thread. */
  readonly workers?: number;
  /** Old-generation heap cap per worker, MB; default `WORKER_HEAP_MB`. */
  readonly heapMb?: number;
}

export interface EncoderPool extends Encoder {
  /** Starts every worker now and resolves once each answers (a worker loads its code at start). */
  warm(): Promise<void>;
  /**
   * Starts every worker now without waiting for it, and without keeping the process alive for it (a
   * command that ends before exporting exits at once): the worker loads its code on another core while
   * this thread loads the config and opens the first connection.
   */
  prestart(): void;
  /** Stops the workers (pending calls fail). */
  close(): Promise<void>;
}

/** The environment variable that sets the number of encoder workers (0 = encode on the calling thread). */
export const WORKERS_ENV = 'REPORT_EXPORTER_ENCODER_WORKERS';
/** The most workers a pool starts (a report's stream stays on one; four reports run at once by default). */
export const MAX_WORKERS = 4;

/**
 * Workers for a pool: `REPORT_EXPORTER_ENCODER_WORKERS` when set, else one per core beyond two (the
 * fetching thread's and one for everything else on the host), at most `MAX_WORKERS`: none on ≤ 2 cores.
 */
export function defaultWorkerCount(
  env: Readonly<Record<string, string | undefined>> = process.env,
  cores: number = os.availableParallelism(),
): number {
  const set = env[WORKERS_ENV];
  if (set === undefined || set === '') return Math.max(0, Math.min(MAX_WORKERS, cores - 2));
  if (!/^\d+$/.test(set) || Number(set) > MAX_WORKERS)
    throw new ExporterError(
      'USAGE',
      `${WORKERS_ENV} is "${set.slice(0, 20)}": give a whole number of encoder workers from 0 to ${MAX_WORKERS} (0 encodes on the main thread), or unset it for the default (CPU count − 2)`,
    );
  return Number(set);
}

export function createEncoderPool(options: EncoderPoolOptions = {}): EncoderPool {
  const size = options.workers ?? defaultWorkerCount();
  if (size === 0) return inlinePool();
  const heapMb = options.heapMb ?? WORKER_HEAP_MB;
  const workers: (PoolWorker | undefined)[] = new Array(size);
  let streams = 0;
  const at = (i: number): PoolWorker => {
    let w = workers[i];
    if (w === undefined || w.dead) {
      w = new PoolWorker(heapMb);
      workers[i] = w;
    }
    return w;
  };
  return {
    open(): EncoderStream {
      const worker = at(streams % size);
      streams += 1;
      return workerStream(worker, streams);
    },
    prestart() {
      for (let i = 0; i < size; i++) at(i);
    },
    async warm() {
      // stream 0 is never opened: closing it is a no-op round trip
      await Promise.all(Array.from({ length: size }, (_, i) => at(i).call({ op: 'close', stream: 0 })));
    },
    async close() {
      await Promise.all(workers.map((w) => w?.terminate()));
    },
  };
}

/** A pool of no workers: the same host on the calling thread (`inlineEncoder`); nothing to start or stop. */
function inlinePool(): EncoderPool {
  const inline = inlineEncoder();
  return {
    open: () => inline.open(),
    prestart() {},
    async warm() {},
    async close() {},
  };
}

function workerStream(worker: PoolWorker, stream: number): EncoderStream {
  const queued: Promise<EncodedBytes>[] = [];
  return {
    async append(batch, spec, part) {
      const p = worker.call({
        op: 'append',
        stream,
        batch,
        ...(spec ? { spec } : {}),
        ...(part ? { part } : {}),
      });
      p.catch(() => undefined);
      queued.push(p);
      while (queued.length > MAX_QUEUED_APPENDS) await queued.shift();
      return { bytes: p };
    },
    // The request is posted at once, in call order, and the queued appends are awaited after: posted
    // only once they had been answered, an encode overtook the appends of the next group that the
    // writer sent meanwhile, and encoded them into this part (files[].rows then disagreed with the
    // files after a roll-over). An append that failed is reported here at the latest.
    encode: (part) => inOrder(queued, worker.call({ op: 'encode', stream, part })),
    finish: (part) => inOrder(queued, worker.call({ op: 'finish', stream, part })),
    close() {
      queued.length = 0;
      worker.call({ op: 'close', stream }).catch(() => undefined);
    },
  };
}

/** `result` once every append queued before it has been answered (their failure first). */
async function inOrder(
  queued: Promise<EncodedBytes>[],
  result: Promise<EncodedBytes>,
): Promise<EncodedBytes> {
  result.catch(() => undefined);
  await Promise.all(queued.splice(0));
  return result;
}

let shared: EncoderPool | undefined;

/** One pool per process (a Lambda container keeps it warm across invocations). */
export function sharedEncoderPool(): EncoderPool {
  shared ??= createEncoderPool();
  return shared;
}
