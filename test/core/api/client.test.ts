/**
 * The client against a scripted API on undici's MockAgent, with a fake clock and a recording sleep:
 * every rule of docs/api-assumptions.md that can be pinned down exactly.
 */
import { Agent, errors } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiClientOptions, createApiClient } from '#core/api/client';
import { isOutOfTime } from '#core/api/retry';
import type { ApiPage, ReportRequest } from '#core/api/types';
import { createHttp } from '#http';
import { collect, failure } from '../../support/pages';
import {
  fakeClock,
  makeJwt,
  ORIGIN,
  recordingLog,
  recordingSleep,
  type ScriptedFailure,
  type ScriptedReply,
  type SeenRequest,
  scriptedApi,
  startCountingServer,
} from './helpers';

const CANARY = 'CANARY-s3cr3t-7f3a9c';
const CREDS = { clientId: 'client-1', clientSecret: CANARY };

const REQUEST: ReportRequest = {
  route: 'campaigns/performance',
  metrics: ['likes', 'comments'],
  startDate: '2026-11-16',
  endDate: '2026-11-22',
  filters: { instanceIds: ['ins_1', 'ins_2'] },
};

type DataHandler = (req: SeenRequest, n: number) => ScriptedReply;

/** Pages `0..count-1` of one row each, cursors with `+ / =` in them. */
const pagesOf =
  (count: number): DataHandler =>
  (req) => {
    const at = req.url.searchParams.get('nextCursor');
    const i = at === null ? 0 : Number(/\+(\d+)==$/.exec(at)?.[1]);
    const next = i + 1 < count ? `p/${i}+${i + 1}==` : null;
    return {
      status: 200,
      body: { data: [{ campaignId: `c${i}`, metrics: { likes: i } }], nextCursor: next },
    };
  };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A client on a scripted API: token route answered by `tokenReply` (default: a 12 h JWT). */
function setup(
  data: DataHandler,
  over: Partial<ApiClientOptions> = {},
  extra: { failures?: ScriptedFailure[]; tokenReply?: (req: SeenRequest) => ScriptedReply } = {},
) {
  const clock = fakeClock();
  const { sleep, waits } = recordingSleep();
  const log = recordingLog();
  let dataCount = 0;
  let issued = 0;
  const api = scriptedApi((req) => {
    if (req.path === '/oauth/token') {
      if (extra.tokenReply) return extra.tokenReply(req);
      issued++;
      return {
        status: 200,
        body: { jwt: makeJwt({ sub: `t${issued}`, exp: clock.now() / 1000 + 12 * 3600 }) },
      };
    }
    return data(req, dataCount++);
  }, extra.failures);
  const events = { reauths: 0, retries: [] as Array<{ status: number | null; delayMs: number }> };
  const client = createApiClient({
    baseUrl: ORIGIN,
    credentials: async () => CREDS,
    http: (pool) => createHttp({ ...pool, dispatcher: api.agent }),
    now: clock.now,
    sleep,
    random: () => 0.5,
    log,
    pageSize: 2,
    events: {
      onReauth: () => {
        events.reauths++;
      },
      onRetry: (i) => {
        events.retries.push({ status: i.status, delayMs: i.delayMs });
      },
    },
    ...over,
  });
  cleanups.push(() => api.agent.close());
  return { api, client, clock, waits, log, events };
}

describe('token', () => {
  it('posts the credentials as JSON to /oauth/token and reuses one token for many pages', async () => {
    const { api, client } = setup(pagesOf(5));
    const pages = await collect(client.pages(REQUEST));
    expect(pages).toHaveLength(5);
    const [token] = api.tokenRequests();
    expect(api.tokenRequests()).toHaveLength(1);
    expect(token?.method).toBe('POST');
    expect(token?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(token?.body ?? '')).toEqual(CREDS);
    const auth = new Set(api.dataRequests().map((r) => r.headers.authorization));
    expect(auth.size).toBe(1);
    expect([...auth][0]).toMatch(/^Bearer eyJ/);
  });

  it('sends an OAuth form body with grant_type=client_credentials when tokenRequest is form', async () => {
    const { api, client } = setup(pagesOf(1), { tokenRequest: 'form' });
    await collect(client.pages(REQUEST));
    const [token] = api.tokenRequests();
    expect(token?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(token?.body ?? ''))).toEqual({
      grant_type: 'client_credentials',
      client_id: CREDS.clientId,
      client_secret: CREDS.clientSecret,
    });
  });

  it('fetches a new token 5 minutes before exp', async () => {
    const { api, client, clock } = setup(pagesOf(1));
    await collect(client.pages(REQUEST));
    clock.advance(12 * 3600_000 - 5 * 60_000 - 1);
    await collect(client.pages(REQUEST));
    expect(api.tokenRequests()).toHaveLength(1);
    clock.advance(1);
    await collect(client.pages(REQUEST));
    expect(api.tokenRequests()).toHaveLength(2);
  });

  it('re-authenticates exactly once when a data route answers 401, and retries the request once', async () => {
    const ok = pagesOf(3);
    const { api, client, events } = setup((req, n) =>
      n === 1 ? { status: 401, body: { title: 'Unauthorized', detail: 'token expired' } } : ok(req, n),
    );
    const pages = await collect(client.pages(REQUEST));
    expect(pages.flatMap((p) => p.rows)).toHaveLength(3);
    expect(api.tokenRequests()).toHaveLength(2);
    expect(api.dataRequests()).toHaveLength(4);
    expect(events.reauths).toBe(1);
    const [a, b, c, d] = api.dataRequests().map((r) => r.headers.authorization);
    expect(a).toBe(b);
    expect(c).not.toBe(b);
    expect(d).toBe(c);
    expect(api.dataRequests()[2]?.path).toBe(api.dataRequests()[1]?.path);
  });

  it('fails with API_UNAUTHORIZED when the data route answers 401 again after the re-authentication', async () => {
    const { api, client } = setup(() => ({ status: 401, body: { title: 'Unauthorized', detail: 'nope' } }));
    const err = await failure(client.pages(REQUEST));
    expect(err.code).toBe('API_UNAUTHORIZED');
    expect(err.message).toContain('401');
    expect(err.message).toContain('/v2/campaigns/performance');
    expect(err.message).toContain('even after re-authenticating once');
    expect(api.tokenRequests()).toHaveLength(2);
    expect(api.dataRequests()).toHaveLength(2);
  });

  it('says "credentials rejected — check the secret" on a token 401 and does not retry', async () => {
    const problem = {
      type: 'about:blank',
      title: 'Invalid client credentials',
      detail: 'clientSecret not accepted',
    };
    const { api, client, waits } = setup(
      pagesOf(1),
      {},
      {
        tokenReply: () => ({
          status: 401,
          body: problem,
          headers: { 'content-type': 'application/problem+json' },
        }),
      },
    );
    const err = await failure(client.pages(REQUEST));
    expect(err.code).toBe('AUTH_REJECTED');
    expect(err.message).toMatch(/^credentials rejected — check the secret \(/);
    expect(err.message).toContain('Invalid client credentials: clientSecret not accepted');
    expect(err.retryable).toBe(false);
    expect(api.tokenRequests()).toHaveLength(1);
    expect(api.dataRequests()).toHaveLength(0);
    expect(waits).toEqual([]);
  });

  it('sends the secret trimmed of a CR LF, and masks it when the 401 quotes it trimmed', async () => {
    const { api, client, log } = setup(
      pagesOf(1),
      { credentials: async () => ({ clientId: ' client-1\t', clientSecret: `${CANARY}\r\n` }) },
      {
        tokenReply: (req) => ({
          status: 401,
          body: {
            title: 'Invalid client credentials',
            detail: `unknown secret ${JSON.parse(req.body).clientSecret}`,
          },
        }),
      },
    );
    const err = await failure(client.pages(REQUEST));
    expect(JSON.parse(api.tokenRequests()[0]?.body ?? '')).toEqual({
      clientId: 'client-1',
      clientSecret: CANARY,
    });
    expect(err.code).toBe('AUTH_REJECTED');
    expect(err.message).toContain('unknown secret [redacted]');
    expect(`${err.message} ${JSON.stringify(err.details)} ${log.text()}`).not.toContain(CANARY);
  });

  it('refuses a client secret that is only whitespace, naming the field and not sending it', async () => {
    const { api, client } = setup(pagesOf(1), {
      credentials: async () => ({ clientId: 'client-1', clientSecret: ' \r\n' }),
    });
    const err = await failure(client.pages(REQUEST));
    expect(err.code).toBe('CREDENTIALS_INVALID');
    expect(err.message).toContain('clientSecret is empty or only whitespace');
    expect(api.tokenRequests()).toHaveLength(0);
  });

  it('says retrying will not help on a token 403 and does not retry', async () => {
    const { api, client } = setup(
      pagesOf(1),
      {},
      {
        tokenReply: () => ({
          status: 403,
          body: { type: 'x', title: 'Client not permitted', detail: 'Contact the account team.' },
          headers: { 'content-type': 'application/problem+json' },
        }),
      },
    );
    const err = await failure(client.pages(REQUEST));
    expect(err.code).toBe('AUTH_FORBIDDEN');
    expect(err.message).toContain(
      "client not permitted — retrying will not help, contact the provider's account team",
    );
    expect(err.message).toContain('Client not permitted: Contact the account team.');
    expect(api.tokenRequests()).toHaveLength(1);
  });

  it('ends token requests for the run after a token 403: later reports of the run fail alike without asking', async () => {
    const { api, client } = setup(
      pagesOf(1),
      {},
      {
        tokenReply: () => ({
          status: 403,
          body: { type: 'x', title: 'Client not permitted', detail: 'Contact the account team.' },
          headers: { 'content-type': 'application/problem+json' },
        }),
      },
    );
    // one after the other: the second starts after the first request has failed
    const first = await failure(client.pages(REQUEST, { runId: 'run-1' }));
    const second = await failure(client.pages(REQUEST, { runId: 'run-1' }));
    expect(second.code).toBe('AUTH_FORBIDDEN');
    expect(second.message).toBe(first.message);
    expect(api.tokenRequests()).toHaveLength(1);
    expect(api.dataRequests()).toHaveLength(0);
    // another run of the same (long-lived) client asks once more
    await failure(client.pages(REQUEST, { runId: 'run-2' }));
    expect(api.tokenRequests()).toHaveLength(2);
  });

  it('retries a token route 503 like any other request', async () => {
    let calls = 0;
    const { client, waits } = setup(
      pagesOf(1),
      {},
      {
        tokenReply: () =>
          ++calls === 1
            ? { status: 503, body: 'busy' }
            : { status: 200, body: { jwt: makeJwt({ sub: 'x' }) } },
      },
    );
    expect(await collect(client.pages(REQUEST))).toHaveLength(1);
    expect(waits).toEqual([250]);
  });
});

describe('retries', () => {
  it('honours Retry-After in seconds on a 429 storm, then succeeds', async () => {
    const ok = pagesOf(2);
    const { client, waits, api } = setup((req, n) =>
      n < 3
        ? { status: 429, headers: { 'retry-after': '7' }, body: { title: 'Too many requests' } }
        : ok(req, n),
    );
    const pages = await collect(client.pages(REQUEST));
    expect(pages).toHaveLength(2);
    expect(waits).toEqual([7000, 7000, 7000]);
    expect(api.dataRequests()).toHaveLength(5);
  });

  it('honours Retry-After as an HTTP date, measured on the injected clock', async () => {
    const ok = pagesOf(1);
    let retryAt = '';
    const { client, waits, clock } = setup((req, n) =>
      n === 0 ? { status: 429, headers: { 'retry-after': retryAt } } : ok(req, n),
    );
    retryAt = new Date(clock.now() + 12_000).toUTCString();
    await collect(client.pages(REQUEST));
    expect(waits).toEqual([12_000]);
  });

  it('caps a long Retry-After at 60 s', async () => {
    const ok = pagesOf(1);
    const { client, waits } = setup((req, n) =>
      n === 0 ? { status: 429, headers: { 'retry-after': '3600' } } : ok(req, n),
    );
    await collect(client.pages(REQUEST));
    expect(waits).toEqual([60_000]);
  });

  it('backs off exponentially with full jitter when a 429 has no Retry-After', async () => {
    const ok = pagesOf(1);
    const { client, waits } = setup((req, n) => (n < 3 ? { status: 429 } : ok(req, n)));
    await collect(client.pages(REQUEST));
    // random() = 0.5 of 500, 1000, 2000 ms
    expect(waits).toEqual([250, 500, 1000]);
  });

  it.each([500, 502, 503, 504])('retries a %i and then succeeds', async (status) => {
    const ok = pagesOf(2);
    const { client, waits, events } = setup((req, n) => (n === 1 ? { status, body: 'oops' } : ok(req, n)));
    const pages = await collect(client.pages(REQUEST));
    expect(pages.flatMap((p) => p.rows)).toHaveLength(2);
    expect(waits).toHaveLength(1);
    expect(events.retries).toEqual([{ status, delayMs: 250 }]);
  });

  it('retries a connection reset mid-paging and then succeeds', async () => {
    const { client, api } = setup(
      pagesOf(3),
      {},
      {
        failures: [
          { match: (p) => p.includes('nextCursor='), error: new errors.SocketError('other side closed') },
        ],
      },
    );
    const pages = await collect(client.pages(REQUEST));
    expect(pages.flatMap((p) => p.rows.map((r) => r.campaignId))).toEqual(['c0', 'c1', 'c2']);
    expect(api.dataRequests()).toHaveLength(3);
  });

  it('retries an ECONNRESET', async () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const { client } = setup(
      pagesOf(1),
      {},
      { failures: [{ match: (p) => p.startsWith('/v2/'), error: reset }] },
    );
    expect(await collect(client.pages(REQUEST))).toHaveLength(1);
  });

  it('retries a request that times out and then succeeds', async () => {
    const { client, waits } = setup(
      pagesOf(1),
      { timeoutMs: 50 },
      {
        failures: [{ match: (p) => p.startsWith('/v2/'), delayMs: 1000 }],
      },
    );
    const started = Date.now();
    expect(await collect(client.pages(REQUEST))).toHaveLength(1);
    expect(waits).toEqual([250]);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('stops at maxRetries with an error naming the route, status and attempts', async () => {
    const { client, api, waits } = setup(() => ({ status: 503, body: { message: 'maintenance' } }), {
      maxRetries: 3,
    });
    const err = await failure(client.pages(REQUEST));
    expect(err.code).toBe('API_SERVER_ERROR');
    expect(err.retryable).toBe(true);
    expect(err.message).toBe(
      'GET /v2/campaigns/performance answered 503 Service Unavailable: maintenance (gave up after 4 attempts)',
    );
    expect(err.details).toMatchObject({ route: '/v2/campaigns/performance', status: 503, attempts: 4 });
    expect(api.dataRequests()).toHaveLength(4);
    expect(waits).toHaveLength(3);
  });

  it('gives up on transport failures after maxRetries with API_NETWORK', async () => {
    const reset = () => new errors.SocketError('other side closed');
    const { client } = setup(
      pagesOf(1),
      { maxRetries: 2 },
      {
        failures: [1, 2, 3].map(() => ({ match: (p: string) => p.startsWith('/v2/'), error: reset() })),
      },
    );
    const err = await failure(client.pages(REQUEST));
    expect(err.code).toBe('API_NETWORK');
    expect(err.message).toBe(
      'GET /v2/campaigns/performance lost the connection (UND_ERR_SOCKET) (gave up after 3 attempts)',
    );
  });

  it("never sleeps past the call's deadline: a Retry-After longer than the time left fails at once", async () => {
    const { client, waits } = setup(() => ({ status: 429, headers: { 'retry-after': '30' } }));
    const err = await failure(client.pages(REQUEST, { deadlineMs: () => 10_000 }));
    expect(err.code).toBe('API_RATE_LIMITED');
    expect(err.message).toContain('the next wait would pass the deadline');
    expect(waits).toEqual([]);
    // marked, so the export step can end with a checkpoint instead of failing the report
    expect(isOutOfTime(err)).toBe(true);
    expect(err.details.outOfTime).toBe(true);
  });

  it('keeps each call to its own deadline and retry count on one shared client (nothing carries over)', async () => {
    let tokenCalls = 0;
    const { client, waits, events } = setup(
      (_req, n) => (n < 2 ? { status: 503 } : { status: 429, headers: { 'retry-after': '30' } }),
      { maxRetries: 2 },
      {
        // the first token request fails once: its retry is the first call's
        tokenReply: () =>
          tokenCalls++ === 0
            ? { status: 503 }
            : { status: 200, body: { jwt: makeJwt({ sub: 't', exp: 4_000_000_000 }) } },
      },
    );
    const first: number[] = [];
    const late = await failure(
      client.pages(REQUEST, { deadlineMs: () => 60_000, onRetry: (i) => first.push(i.status ?? 0) }),
    );
    // token 503, data 503, data 503 retried; the third data answer (429) is the last allowed attempt
    expect(first).toEqual([503, 503, 503]);
    expect(late.code).toBe('API_RATE_LIMITED');
    expect(isOutOfTime(late)).toBe(false);
    // the next call (the next invocation) brings its own, shorter clock and counts from zero
    const second: number[] = [];
    const early = await failure(
      client.pages(REQUEST, { deadlineMs: () => 5_000, onRetry: (i) => second.push(i.status ?? 0) }),
    );
    expect(isOutOfTime(early)).toBe(true);
    expect(second).toEqual([]);
    // the client-wide hook saw every retry of both calls; no wait ever passed a call's deadline
    expect(events.retries.map((r) => r.status)).toEqual([503, 503, 503]);
    expect(waits.every((w) => w < 60_000)).toBe(true);
  });

  it('does not mark a failure that simply ran out of retries as out of time', async () => {
    const { client } = setup(() => ({ status: 503 }), { maxRetries: 1 });
    const err = await failure(client.pages(REQUEST));
    expect(err.code).toBe('API_SERVER_ERROR');
    expect(isOutOfTime(err)).toBe(false);
  });

  it('shortens an attempt to the time left before the deadline', async () => {
    const { client } = setup(
      pagesOf(1),
      { timeoutMs: 30_000, maxRetries: 0 },
      {
        failures: [{ match: (p) => p.startsWith('/v2/'), delayMs: 5000 }],
      },
    );
    const started = Date.now();
    const err = await failure(client.pages(REQUEST, { deadlineMs: () => 1000 }));
    expect(err.code).toBe('API_NETWORK');
    expect(err.message).toContain('timed out');
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it.each([
    [400, 'API_BAD_REQUEST'],
    [403, 'API_FORBIDDEN'],
    [404, 'API_NOT_FOUND'],
  ])('does not retry a %i', async (status, code) => {
    const { client, api, waits } = setup(() => ({ status, body: { title: 'No', detail: 'no' } }));
    const err = await failure(client.pages(REQUEST));
    expect(err.code).toBe(code);
    expect(err.retryable).toBe(false);
    expect(api.dataRequests()).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('error messages', () => {
  it('names the valid metric set the server gave for a 400 on metrics', async () => {
    const { client } = setup(() => ({
      status: 400,
      body: {
        title: 'Invalid metrics',
        detail: 'metric "reach" is not valid for platform instagram',
        validMetrics: ['likes', 'comments', 'shares'],
      },
    }));
    const err = await failure(client.pages({ ...REQUEST, metrics: ['likes', 'reach'] }));
    expect(err.message).toBe(
      'GET /v2/campaigns/performance answered 400 Bad Request: Invalid metrics: metric "reach" is not valid for ' +
        'platform instagram (valid metrics named by the server: likes, comments, shares)',
    );
    expect(err.details).toMatchObject({
      validMetrics: ['likes', 'comments', 'shares'],
      metrics: ['likes', 'reach'],
    });
  });

  it('finds a valid set nested in the body under another name', async () => {
    const { client } = setup(() => ({
      status: 400,
      body: { error: { message: 'bad metric', allowed: ['a', 'b'] } },
    }));
    const err = await failure(client.pages(REQUEST));
    expect(err.message).toContain('bad metric (valid metrics named by the server: a, b)');
  });

  it('keeps the detail text when the server names the valid set only in prose', async () => {
    const { client } = setup(() => ({
      status: 400,
      body: { detail: 'Valid metrics for tiktok: likes, comments' },
    }));
    const err = await failure(client.pages(REQUEST));
    expect(err.message).toContain('Valid metrics for tiktok: likes, comments');
  });

  it('names the instanceIds it sent on a 403', async () => {
    const { client } = setup(() => ({ status: 403, body: { message: 'Forbidden instance' } }));
    const err = await failure(client.pages(REQUEST));
    expect(err.message).toContain('403 Forbidden: Forbidden instance');
    expect(err.message).toContain('instanceIds sent: ins_1, ins_2');
    expect(err.details).toMatchObject({ instanceIds: ['ins_1', 'ins_2'], status: 403 });
  });

  it('quotes the first 2 KB of a text body and the request id header', async () => {
    const { client } = setup(() => ({
      status: 404,
      body: `<html>${'x'.repeat(5000)}</html>`,
      headers: { 'content-type': 'text/html', 'x-request-id': 'req-42' },
    }));
    const err = await failure(client.pages(REQUEST));
    expect(err.message.startsWith('GET /v2/campaigns/performance answered 404 Not Found: <html>xxx')).toBe(
      true,
    );
    expect(err.message.length).toBeLessThan(2200);
    expect(err.details).toMatchObject({
      requestId: 'req-42',
      route: '/v2/campaigns/performance',
      status: 404,
    });
  });

  it('rejects a 200 body that is not a page with API_BAD_RESPONSE', async () => {
    const { client } = setup(() => ({ status: 200, body: { items: [] } }));
    expect((await failure(client.pages(REQUEST))).code).toBe('API_BAD_RESPONSE');
    const { client: c2 } = setup(() => ({ status: 200, body: '<html>' }));
    expect((await failure(c2.pages(REQUEST))).code).toBe('API_BAD_RESPONSE');
  });
});

describe('pages', () => {
  it('accepts data as one object (one row) or as an array', async () => {
    const { client } = setup((_req, n) =>
      n === 0
        ? { status: 200, body: { data: { instanceId: 'i', metrics: { likes: 1 } } } }
        : { status: 200, body: { data: [{ a: 1 }, { a: 2 }], nextCursor: null } },
    );
    const agg = { ...REQUEST, route: 'instances/performance' as const };
    expect((await collect(client.pages(agg))).map((p) => p.rows)).toEqual([
      [{ instanceId: 'i', metrics: { likes: 1 } }],
    ]);
    expect((await collect(client.pages(agg))).map((p) => p.rows.length)).toEqual([2]);
  });

  it('sends cursors with + / = percent-encoded and gets them back intact', async () => {
    const { client, api } = setup(pagesOf(3));
    const pages = await collect(client.pages(REQUEST));
    expect(pages.map((p) => p.nextCursor)).toEqual(['p/0+1==', 'p/1+2==', null]);
    const sent = api.dataRequests().map((r) => r.path.split('nextCursor=')[1] ?? null);
    expect(sent).toEqual([null, 'p%2F0%2B1%3D%3D', 'p%2F1%2B2%3D%3D']);
  });

  it('resumes at a given cursor', async () => {
    const { client, api } = setup(pagesOf(3));
    const pages = await collect(client.pages(REQUEST, { cursor: 'p/0+1==' }));
    expect(pages.map((p) => p.index)).toEqual([0, 1]);
    expect(api.dataRequests()[0]?.url.searchParams.get('nextCursor')).toBe('p/0+1==');
  });

  it('detects a server that repeats a cursor', async () => {
    const { client } = setup(() => ({ status: 200, body: { data: [{ a: 1 }], nextCursor: 'same+/=' } }));
    expect((await failure(client.pages(REQUEST))).code).toBe('API_CURSOR_LOOP');
  });

  it('sends limit = pageSize on list routes only', async () => {
    const { client, api } = setup(pagesOf(1), { pageSize: 777 });
    await collect(client.pages(REQUEST));
    await collect(client.pages({ ...REQUEST, route: 'platforms/performance' }));
    const [list, agg] = api.dataRequests();
    expect(list?.url.searchParams.get('limit')).toBe('777');
    expect(agg?.url.searchParams.has('limit')).toBe(false);
  });

  it('stops without retrying when the caller aborts', async () => {
    const controller = new AbortController();
    const { client, api } = setup((req, n) => {
      controller.abort(new Error('stop'));
      return pagesOf(3)(req, n);
    });
    const pages: ApiPage[] = [];
    await expect(
      (async () => {
        for await (const p of client.pages(REQUEST, { signal: controller.signal })) pages.push(p);
      })(),
    ).rejects.toThrow();
    expect(api.dataRequests()).toHaveLength(1);
  });
});

describe('secrets', () => {
  it('never puts the secret or the token in a message, detail or log line, even when the server echoes them', async () => {
    let jwt = '';
    const { client, log, api } = setup((req, n) => {
      jwt = (req.headers.authorization ?? '').replace('Bearer ', '');
      if (n < 2) return { status: 503, body: { detail: `echo: ${req.headers.authorization} / ${CANARY}` } };
      return { status: 400, body: { message: `bad; you sent ${jwt} and ${CANARY}` } };
    });
    const err = await failure(client.pages(REQUEST));
    const everything = `${err.message} ${JSON.stringify(err.details)} ${log.text()}`;
    expect(jwt).toMatch(/^eyJ/);
    expect(everything).not.toContain(CANARY);
    expect(everything).not.toContain(jwt);
    expect(err.message).toContain('[redacted]');
    expect(api.requests.every((r) => !r.path.includes(CANARY))).toBe(true);
    // the secret travels only in the token POST body
    const carrying = api.requests.filter((r) =>
      `${r.path} ${JSON.stringify(r.headers)} ${r.body}`.includes(CANARY),
    );
    expect(carrying.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /oauth/token']);
  });

  it('logs retries and re-authentication without secrets', async () => {
    const ok = pagesOf(2);
    const { client, log } = setup((req, n) =>
      n === 0 ? { status: 401 } : n === 1 ? { status: 503 } : ok(req, n),
    );
    await collect(client.pages(REQUEST));
    expect(log.lines.map((l) => l.message)).toEqual(
      expect.arrayContaining(['data route answered 401; re-authenticating once', 'retrying API request']),
    );
    expect(log.text()).not.toContain(CANARY);
    expect(log.text()).not.toMatch(/eyJ|Bearer/);
  });

  it('refuses a base URL that carries a user name or password', () => {
    expect(() =>
      createApiClient({ baseUrl: 'https://u:p@api.test', http: createHttp, credentials: async () => CREDS }),
    ).toThrow(/must not carry a user name or password/);
  });
});

describe('concurrency', () => {
  it('never has more than `concurrency` requests in flight, across reports sharing the client', async () => {
    const server = await startCountingServer({ delayMs: 15, pages: 6 });
    const dispatcher = new Agent({ connections: 20 });
    cleanups.push(async () => {
      await dispatcher.close();
      await server.close();
    });
    const client = createApiClient({
      baseUrl: server.baseUrl,
      credentials: async () => CREDS,
      http: (pool) => createHttp({ ...pool, dispatcher }),
      concurrency: 3,
    });
    const routes = [
      'campaigns',
      'instances',
      'campaigns/performance',
      'creators/performance',
      'posts/performance',
    ];
    const results = await Promise.all(
      routes.map((route) => collect(client.pages({ ...REQUEST, route: route as ReportRequest['route'] }))),
    );
    expect(results.map((r) => r.length)).toEqual([6, 6, 6, 6, 6]);
    expect(server.stats().total).toBe(31);
    expect(server.stats().maxInFlight).toBe(3);
  });
});
