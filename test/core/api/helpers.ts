/** Test doubles for the API client: a scripted API on undici's MockAgent, a fake clock, a recording sleep and log. */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockAgent } from 'undici';
import type { ReportRequest } from '#core/api/types';
import type { Log, LogFields } from '#core/log';

export const ORIGIN = 'http://api.test';

/** One day of posts/performance with one metric: the request the client tests page through. */
export const POSTS_REQUEST: ReportRequest = {
  route: 'posts/performance',
  metrics: ['likes'],
  startDate: '2026-11-22',
  endDate: '2026-11-22',
  filters: {},
};

/** An unsigned JWT with these claims (the client never verifies signatures). */
export function makeJwt(claims: Record<string, unknown>): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}.c2lnbmF0dXJl`;
}

export interface RecordedLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: LogFields | undefined;
}

export function recordingLog(): Log & { lines: RecordedLine[]; text(): string } {
  const lines: RecordedLine[] = [];
  const at =
    (level: RecordedLine['level']) =>
    (message: string, fields?: LogFields): void => {
      lines.push({ level, message, fields });
    };
  return {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () => lines.map((l) => `${l.level} ${l.message} ${JSON.stringify(l.fields ?? {})}`).join('\n'),
  };
}

/** A clock that moves only when told to. */
export function fakeClock(startMs = Date.parse('2026-11-23T08:00:00Z')) {
  let t = startMs;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

/** A sleep that returns at once and remembers what it was asked to wait. */
export function recordingSleep() {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  };
}

export interface SeenRequest {
  method: string;
  path: string;
  url: URL;
  headers: Record<string, string>;
  body: string;
}

export interface ScriptedReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ScriptedFailure {
  /** Matched against the request path (query sorted and re-encoded by MockAgent). */
  readonly match: (path: string) => boolean;
  /** The transport error the request fails with (e.g. a SocketError for a reset)… */
  readonly error?: Error;
  /** …or how long the response is held back (to trip the client's timeout). */
  readonly delayMs?: number;
}

/**
 * A MockAgent whose every request goes to `handler`, in order, and is recorded — except that each of
 * `failures` makes the first request it matches fail at the transport level instead (one-shot
 * interceptors, registered before the persistent one so they are matched first).
 */
export function scriptedApi(handler: (req: SeenRequest) => ScriptedReply, failures: ScriptedFailure[] = []) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  const requests: SeenRequest[] = [];
  for (const f of failures) {
    const i = pool.intercept({ path: f.match, method: () => true });
    if (f.error) i.replyWithError(f.error);
    else i.reply(200, '{"data":[]}').delay(f.delayMs ?? 0);
  }
  pool
    .intercept({ path: () => true, method: () => true })
    .reply((opts) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries((opts.headers ?? {}) as Record<string, string>)) {
        headers[k.toLowerCase()] = String(v);
      }
      const seen = {
        method: opts.method,
        path: opts.path,
        url: new URL(opts.path, ORIGIN),
        headers,
        body: typeof opts.body === 'string' ? opts.body : '',
      };
      requests.push(seen);
      const r = handler(seen);
      const text = typeof r.body === 'string' ? r.body : r.body === undefined ? '' : JSON.stringify(r.body);
      return {
        statusCode: r.status,
        data: text,
        responseOptions: { headers: { 'content-type': 'application/json', ...r.headers } },
      };
    })
    .persist();
  return {
    agent,
    requests,
    /** Data requests only (not the token route). */
    dataRequests: () => requests.filter((r) => r.path.startsWith('/v2/')),
    tokenRequests: () => requests.filter((r) => r.path === '/oauth/token'),
  };
}

/** A local HTTP API that counts requests in flight: tokens, and list pages of `pages` × `rows`. */
export async function startCountingServer(options: { delayMs: number; pages: number }) {
  let inFlight = 0;
  let maxInFlight = 0;
  let total = 0;
  const server = createServer((req: IncomingMessage, res) => {
    inFlight++;
    total++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    req.resume();
    setTimeout(() => {
      const url = new URL(req.url ?? '/', 'http://x');
      let body: unknown;
      if (url.pathname === '/oauth/token')
        body = { jwt: makeJwt({ exp: Math.floor(Date.now() / 1000) + 3600 }) };
      else {
        const page = Number(url.searchParams.get('nextCursor') ?? '0');
        const next = page + 1 < options.pages ? String(page + 1) : null;
        body = { data: [{ id: `${url.pathname}-${page}` }], nextCursor: next };
      }
      inFlight--;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    }, options.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stats: () => ({ maxInFlight, total }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
