/**
 * A local simulator of the Reporting API v2 (token route + nine data routes) on node:http, with
 * deterministic data from a seed, ground truth for tests, and switchable faults.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Jwt } from './auth';
import { Cursors } from './cursor';
import { DEFAULT_DIALECT, type Dialect } from './dialect';
import { Engine } from './engine';
import { DEFAULT_FAULTS, drawFailure, drawSlow, type Faults } from './faults';
import { handleData, type Reply } from './handlers';
import { isRoute } from './routes';
import { handleToken, simulatorCredentials } from './token';
import { createTruth, type GroundTruth } from './truth';
import { DEFAULT_SCALE, World } from './world';

export type { Dialect } from './dialect';
export type { Faults } from './faults';
export type { GroundTruth } from './truth';

export interface SimulatorOptions {
  host?: string;
  port?: number;
  seed?: number;
  scale?: { postsPerDay?: number; campaigns?: number; creators?: number; instances?: number };
  latencyMs?: number;
  faults?: Partial<Faults>;
  /**
   * Late-arriving metrics: each `advance()` makes every additive value grow by this fraction of its
   * first value (0.05: +5 % per advance), so two calls for the same window answer differently.
   * Default 0: values never change.
   */
  growth?: number;
  /** How requests are read and pages written (array encoding, strict mode, cursor location). */
  dialect?: Partial<Dialect>;
  /**
   * Hostile text (formulas, quotes, line breaks, `<script>`, RTL, emoji) in creator, account and
   * campaign names and captions, and posts whose `creator.id` repeats `creatorId`. Default false: a
   * realistic brand's week, as the demo shows it.
   */
  hostile?: boolean;
  /** The clock tokens are signed and checked by, and `Retry-After` dates are set by; default `Date.now`. */
  now?: () => number;
}

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

export interface LoggedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

export interface Simulator {
  baseUrl: string;
  credentials: Credentials;
  forbiddenCredentials: Credentials;
  setFaults(f: Partial<Faults>): void;
  /** Late metrics arrive: values grow by the `growth` option (nothing changes without it). */
  advance(): void;
  setDialect(d: Partial<Dialect>): void;
  stats(): {
    requests: number;
    byStatus: Record<string, number>;
    tokensIssued: number;
    byRoute: Record<string, number>;
  };
  requestLog(): LoggedRequest[];
  truth: GroundTruth;
  close(): Promise<void>;
}

const LOG_SIZE = 500;

/** Starts the simulator; resolves once it listens. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const seed = options.seed ?? 1;
  const world = new World(seed, { ...DEFAULT_SCALE, ...options.scale }, options.hostile ?? false);
  const engine = new Engine(world, options.growth ?? 0);
  const jwt = new Jwt(seed);
  const cursors = new Cursors(seed);
  const creds = simulatorCredentials(seed);
  let faults: Faults = { ...DEFAULT_FAULTS, ...options.faults };
  let dialect: Dialect = { ...DEFAULT_DIALECT, ...options.dialect };
  const latency = options.latencyMs ?? 0;
  const now = options.now ?? Date.now;
  const counts = {
    requests: 0,
    tokensIssued: 0,
    byStatus: {} as Record<string, number>,
    byRoute: {} as Record<string, number>,
  };
  const log: LoggedRequest[] = [];
  let seq = 0;

  const send = (res: ServerResponse, reply: Reply, contentType = 'application/json') => {
    counts.byStatus[reply.status] = (counts.byStatus[reply.status] ?? 0) + 1;
    const text = JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      'content-type': contentType,
      'content-length': Buffer.byteLength(text),
      ...reply.headers,
    });
    res.end(text);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    counts.requests++;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = String(v);
    log.push({ method: req.method ?? '', url: req.url ?? '', headers });
    if (log.length > LOG_SIZE) log.shift();
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const bump = (key: string) => {
      counts.byRoute[key] = (counts.byRoute[key] ?? 0) + 1;
    };

    if (url.pathname === '/oauth/token') {
      bump('oauth/token');
      const reply = await handleToken(req, { jwt, creds, ttlSeconds: faults.tokenTtlSeconds, nowMs: now() });
      if (reply.status === 200) counts.tokensIssued++;
      send(res, reply, reply.status === 200 ? 'application/json' : 'application/problem+json');
      return;
    }
    const route = url.pathname.startsWith('/v2/') ? url.pathname.slice(4).replace(/\/+$/, '') : '';
    if (!isRoute(route)) {
      bump('unknown');
      send(res, {
        status: 404,
        body: { message: `Not found: ${url.pathname}`, title: 'Not found', detail: url.pathname },
      });
      return;
    }
    bump(route);
    if (req.method !== 'GET') {
      send(res, {
        status: 405,
        body: {
          message: 'Method not allowed',
          title: 'Method not allowed',
          detail: `${req.method} is not allowed; use GET.`,
        },
        headers: { allow: 'GET' },
      });
      return;
    }
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const verdict = auth?.[1] ? jwt.verify(auth[1], now()) : { error: 'missing bearer token' };
    if ('error' in verdict) {
      send(res, {
        status: 401,
        body: { message: `Unauthorized: ${verdict.error}`, title: 'Unauthorized', detail: verdict.error },
        headers: { 'www-authenticate': 'Bearer' },
      });
      return;
    }
    const n = ++seq;
    const failure = drawFailure(seed, n, faults, now());
    const delay = latency + drawSlow(seed, n, faults);
    if (delay > 0) await sleep(delay);
    if (failure?.kind === '429') {
      send(res, {
        status: 429,
        body: { message: 'Too many requests', title: 'Too many requests', detail: 'rate limit exceeded' },
        ...(failure.retryAfter ? { headers: { 'retry-after': failure.retryAfter } } : {}),
      });
      return;
    }
    if (failure?.kind === '5xx') {
      send(res, {
        status: failure.status,
        body: { message: 'Server error', title: 'Server error', detail: 'simulated' },
      });
      return;
    }
    const reply = handleData(route, url.searchParams, { engine, cursors, faults, seed, seq: n, dialect });
    if (failure?.kind === 'reset') {
      counts.byStatus.reset = (counts.byStatus.reset ?? 0) + 1;
      const text = JSON.stringify(reply.body);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      if (failure.after === 'partial-body') res.write(text.slice(0, Math.floor(text.length / 2)));
      else res.flushHeaders();
      setImmediate(() => req.socket.destroy());
      return;
    }
    send(res, reply);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const detail = err instanceof Error ? err.message : String(err);
      if (!res.headersSent)
        send(res, { status: 500, body: { message: 'Internal error', title: 'Internal error', detail } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;

  return {
    baseUrl: `http://${host}:${addr.port}`,
    credentials: creds.allowed,
    forbiddenCredentials: creds.forbidden,
    setFaults(f) {
      faults = { ...faults, ...f };
    },
    advance: () => engine.advance(),
    setDialect(d) {
      dialect = { ...dialect, ...d };
    },
    stats: () => ({
      requests: counts.requests,
      tokensIssued: counts.tokensIssued,
      byStatus: { ...counts.byStatus },
      byRoute: { ...counts.byRoute },
    }),
    requestLog: () => log.map((e) => ({ ...e, headers: { ...e.headers } })),
    truth: createTruth(engine),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
