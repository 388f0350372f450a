/**
 * The HTTP adapters read bodies into buffers lent from a pool and given back by the transport once
 * decoded (`HttpAnswer.release`, functions/adapters/body-buffers.ts). What must hold, on node:http
 * (the CLI's bundle), undici (tests, the CLI from its sources) and fetch (the Lambdas) alike: no two
 * answers in hand share memory, a buffer comes back only after its release, and for any mix of
 * sizes, framings and concurrency every decoded body equals the bytes the server sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyBuffers } from '#adapters/body-buffers';
import { createHttp as undiciHttp } from '#adapters/http';
import { createHttp as fetchHttp } from '#adapters/http-fetch';
import { createHttp as nodeHttp } from '#adapters/http-node';
import type { HttpFactory } from '#core/api/http';
import { createTransport } from '#core/api/transport';
import { createLimiter } from '#core/limiter';

/** The text the server sends for `seed` and `size`: ASCII, so bytes and characters agree. */
function bodyText(seed: number, size: number): string {
  const unit = `${seed.toString(36)}:`;
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const text = Buffer.from(
      bodyText(Number(url.searchParams.get('seed')), Number(url.searchParams.get('size'))),
    );
    const chunk = Number(url.searchParams.get('chunk'));
    // without content-length the body goes out chunked, so the adapter learns its size as it reads
    if (url.searchParams.get('length') === '1') res.setHeader('content-length', text.length);
    res.setHeader('content-type', 'application/json; charset=utf-8');
    let at = 0;
    const next = () => {
      if (at >= text.length) return void res.end();
      res.write(text.subarray(at, at + chunk));
      at += chunk;
      setImmediate(next);
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const url = (seed: number, size: number, chunk: number, length: boolean) =>
  `${base}/b?seed=${seed}&size=${size}&chunk=${chunk}&length=${length ? 1 : 0}`;

describe('BodyBuffers', () => {
  it('keeps at most one spare buffer per connection, and none past 4 MiB', () => {
    const pool = new BodyBuffers(1);
    const small = pool.take(100_000);
    const other = pool.take(100_000);
    pool.give(small);
    pool.give(other);
    expect(pool.take(50_000)).toBe(small);
    expect(pool.take(50_000)).not.toBe(other);
    const large = pool.take(5 * 1024 * 1024);
    pool.give(large);
    expect(pool.take(1)).not.toBe(large);
  });

  it('grows a buffer keeping the bytes already read', () => {
    const pool = new BodyBuffers(1);
    const held = pool.take(10);
    held.write('0123456789');
    const larger = pool.grow(held, 10, held.length);
    expect(larger).not.toBe(held);
    expect(larger.subarray(0, 10).toString()).toBe('0123456789');
    expect(pool.grow(larger, 10, 1)).toBe(larger);
  });
});

const body = fc.record({
  size: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 60_000, max: 700_000 })),
  chunk: fc.constantFrom(1_000, 16_384, 65_536, 300_000),
  length: fc.boolean(),
});

const ADAPTERS: [string, HttpFactory][] = [
  ['node:http', nodeHttp],
  ['undici', undiciHttp],
  ['fetch', fetchHttp],
];

describe.each(ADAPTERS)('%s adapter: lent body buffers', (_name, createHttp) => {
  it('lends no buffer to two answers in hand, and lends it again once released', async () => {
    const http = createHttp({ connections: 2, timeoutMs: 5_000 });
    try {
      const signal = AbortSignal.timeout(5_000);
      const get = (seed: number) =>
        http.send({ method: 'GET', url: url(seed, 200_000, 65_536, true), headers: {}, signal });
      const a = await get(1);
      const b = await get(2);
      expect(a.body.buffer).not.toBe(b.body.buffer);
      expect(Buffer.from(a.body).toString()).toBe(bodyText(1, 200_000));
      expect(Buffer.from(b.body).toString()).toBe(bodyText(2, 200_000));
      a.release?.();
      a.release?.(); // a second release gives nothing back twice
      const c = await get(3);
      expect(c.body.buffer).toBe(a.body.buffer);
      const d = await get(4);
      expect(d.body.buffer).not.toBe(c.body.buffer);
      expect(Buffer.from(b.body).toString()).toBe(bodyText(2, 200_000)); // b untouched by c and d
    } finally {
      await http.close();
    }
  });

  test.prop(
    [
      fc.array(fc.array(fc.tuple(body, fc.boolean()), { minLength: 1, maxLength: 6 }), {
        minLength: 1,
        maxLength: 4,
      }),
    ],
    { numRuns: 25 },
  )('answers in hand keep their bytes, whichever were released before', async (waves) => {
    const http = createHttp({ connections: 3, timeoutMs: 10_000 });
    const signal = AbortSignal.timeout(20_000);
    let seed = 0;
    const inHand: { answer: Awaited<ReturnType<typeof http.send>>; text: string }[] = [];
    try {
      for (const wave of waves) {
        const sent = wave.map(([{ size, chunk, length }, keep]) => {
          seed += 1;
          const text = bodyText(seed, size);
          const answer = http.send({
            method: 'GET',
            url: url(seed, size, chunk, length),
            headers: {},
            signal,
          });
          return answer.then((a) => ({ answer: a, text, keep }));
        });
        for (const { answer, text, keep } of await Promise.all(sent)) {
          if (keep) inHand.push({ answer, text });
          else answer.release?.();
        }
        for (const held of inHand) expect(Buffer.from(held.answer.body).toString()).toBe(held.text);
      }
    } finally {
      await http.close();
    }
  });

  test.prop([fc.array(body, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 4 })], {
    numRuns: 25,
  })(
    'any sizes, framings and concurrency: every decoded body is the one sent',
    async (bodies, connections) => {
      const http = createHttp({ connections, timeoutMs: 10_000 });
      const transport = createTransport({
        http,
        limiter: createLimiter(connections),
        timeoutMs: () => 10_000,
      });
      try {
        const texts = await Promise.all(
          bodies.map(async ({ size, chunk, length }, seed) => {
            const received = await transport({
              method: 'GET',
              url: url(seed, size, chunk, length),
              path: '/b',
              headers: {},
            });
            return received.text;
          }),
        );
        expect(texts).toEqual(bodies.map(({ size }, seed) => bodyText(seed, size)));
      } finally {
        await http.close();
      }
    },
  );
});
