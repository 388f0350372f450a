/**
 * The hostile-but-plausible API of issue 23, as cases shared by the CLI test
 * (test/e2e/hostile-api.test.ts) and the deployed bundles' test (test/handlers/hostile-workflow.e2e.test.ts),
 * so both paths meet the same server and must end the same way. Each case sets the loopback server's
 * routes and says what the run must end in: the CLI's exit code, the report's status, the message
 * (the failed report's error, or a warning), and the secrets that must appear in no output. Not a test file.
 */
import { gzipSync } from 'node:zlib';
import type { ManifestReport } from '#core/manifest';
import { type HostileServer, json, jwtOf } from './hostile-server';

export const SCHEDULE_AT = '2026-11-23T06:00:00Z';
/** The plain client secret of most cases: needs JSON, URL and HTML escaping. */
export const SECRET = 'pa"ss/w0rd+plus & space-0123456789';
export const CLIENT_ID = 'client-23';

export interface HostileCase {
  /** Also the schedule id of the case (one schedule per case in the shared config). */
  readonly id: string;
  /** The client secret the operator configured (as the env override or the secret holds it). */
  readonly secret: string;
  /** Sets the server's routes; returns the JWT it issues, when the case needs to know it. */
  readonly serve: (server: HostileServer) => string | undefined;
  readonly expected: {
    /** The CLI's exit code (the workflow's equivalent: 1 failed, 3 warnings, 0 clean). */
    readonly exit: 0 | 1 | 3;
    readonly status: 'succeeded' | 'failed';
    /** In the report's error (failed) or one of its warnings (succeeded with warnings). */
    readonly message: string;
    readonly warning?: string;
    /** In the CSV the report wrote. */
    readonly csvContains?: string;
  };
}

const ROUTE = '/v2/posts/performance';
const rows = (names: readonly string[]) =>
  names.map((n, i) => ({ postId: `p${i}`, creatorName: n, metrics: { likes: i + 1 } }));

/** A JWT whose payload segment is about `bytes` long. */
export function bigJwt(bytes: number): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const pad = 'x'.repeat(Math.max(1, Math.floor((bytes * 3) / 4)));
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: CLIENT_ID, exp: 4e9, pad })}.${b64({ sig: bytes })}`;
}

/** A data route that echoes the JWT it was sent (raw, per segment, base64) in a 400. */
function echoingJwt(server: HostileServer, jwt: string): void {
  server.routes.set('/oauth/token', (_req, res) => json(res, 200, { jwt }));
  server.routes.set(ROUTE, (req, res) => {
    const sent = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const [h = '', p = '', s = ''] = sent.split('.');
    json(res, 400, {
      title: 'Bad Request',
      detail: `token ${sent} rejected; header ${h}; payload ${Buffer.from(p, 'base64url').toString('base64')}; sig ${s}`,
    });
  });
}

export const HOSTILE_CASES: readonly HostileCase[] = [
  {
    id: 'ignored-cursor',
    secret: SECRET,
    serve: (server) => {
      let n = 0;
      server.routes.set(ROUTE, (_req, res) => {
        n += 1;
        json(res, 200, { data: rows(['Ava', 'Noah']), nextCursor: `fresh-${n}` });
      });
      return undefined;
    },
    expected: {
      exit: 1,
      status: 'failed',
      message:
        'GET /v2/posts/performance: 3 pages in a row held only rows already exported (the server seems to ignore the cursor and serve the same page again with a new cursor); stopped at page 4',
    },
  },
  {
    id: 'partial-200',
    secret: SECRET,
    serve: (server) => {
      server.routes.set(ROUTE, (_req, res) =>
        json(res, 200, {
          data: rows(['Ava', 'Noah']),
          nextCursor: null,
          errors: [{ message: 'shard 3 of 4 timed out; results are partial' }],
          partial: true,
        }),
      );
      return undefined;
    },
    expected: {
      exit: 3,
      status: 'succeeded',
      warning: 'SERVER_PARTIAL',
      message:
        '1 of 1 pages said their results are partial (partial, errors): "shard 3 of 4 timed out; results are partial"',
    },
  },
  {
    id: 'gzip-latin1',
    secret: SECRET,
    serve: (server) => {
      server.routes.set(ROUTE, (_req, res) => {
        const body = JSON.stringify({ data: rows(['Café Müller', 'Zoë']), nextCursor: null });
        res
          .writeHead(200, {
            'content-type': 'application/json; charset=iso-8859-1',
            'content-encoding': 'gzip',
          })
          .end(gzipSync(Buffer.from(body, 'latin1')));
      });
      return undefined;
    },
    expected: { exit: 0, status: 'succeeded', message: '', csvContains: 'Café Müller' },
  },
  {
    id: 'utf16-bom',
    secret: SECRET,
    serve: (server) => {
      server.routes.set(ROUTE, (_req, res) => {
        const body = JSON.stringify({ data: rows(['Café Müller']), nextCursor: null });
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, 'utf16le')]));
      });
      return undefined;
    },
    expected: { exit: 0, status: 'succeeded', message: '', csvContains: 'Café Müller' },
  },
  {
    id: 'problem-200',
    secret: SECRET,
    serve: (server) => {
      server.routes.set(ROUTE, (_req, res) =>
        json(
          res,
          200,
          { type: 'about:blank', title: 'Quota exceeded', detail: 'daily quota of 10000 requests used up' },
          { 'content-type': 'application/problem+json' },
        ),
      );
      return undefined;
    },
    expected: {
      exit: 1,
      status: 'failed',
      message:
        'GET /v2/posts/performance: the server answered with a problem report instead of data: Quota exceeded: daily quota of 10000 requests used up',
    },
  },
  {
    id: 'jwt-20kb',
    secret: SECRET,
    serve: (server) => {
      const jwt = bigJwt(20 * 1024);
      echoingJwt(server, jwt);
      return jwt;
    },
    expected: { exit: 1, status: 'failed', message: 'GET /v2/posts/performance answered 400' },
  },
  {
    id: 'jwt-1mb',
    secret: SECRET,
    serve: (server) => {
      const jwt = bigJwt(1024 * 1024);
      echoingJwt(server, jwt);
      return jwt;
    },
    expected: { exit: 1, status: 'failed', message: 'GET /v2/posts/performance answered 400' },
  },
  {
    id: 'crlf-secret',
    secret: `${SECRET}\r\n`,
    serve: (server) => {
      server.routes.set('/oauth/token', (req, res) => {
        const sent = String((JSON.parse(req.body) as { clientSecret?: unknown }).clientSecret);
        json(res, 401, {
          title: 'Invalid client credentials',
          detail: `unknown client secret "${sent.trim()}"`,
        });
      });
      return undefined;
    },
    expected: {
      exit: 1,
      status: 'failed',
      message: 'credentials rejected — check the secret',
    },
  },
];

/** One schedule per case, one paged report each; the same shape the bundles' test synthesizes. */
export function hostileConfig(baseUrl: string): string {
  const schedules = HOSTILE_CASES.map(
    (c) => `  - id: ${c.id}
    cron: "0 6 * * ? *"
    window: yesterday
    recipients: [team@example.com]
    reports: [{ id: posts, route: posts/performance, metrics: [likes] }]`,
  ).join('\n');
  return `api: { baseUrl: "${baseUrl}", credentialsSecret: test/reporting, maxRetries: 0, concurrency: 1 }
output: { prefix: exports/, formats: [csv] }
email: { from: Reports <reports@example.com>, operators: [ops@example.com] }
schedules:
${schedules}
`;
}

/**
 * Sets the server up for `c`: a token route issuing an ordinary JWT, then the case's own routes.
 * Returns the JWT the case's runs will hold (for the scan).
 */
export function serveCase(server: HostileServer, c: HostileCase): string {
  server.routes.clear();
  const issued = jwtOf({ sub: CLIENT_ID, exp: 4e9, case: c.id });
  server.routes.set('/oauth/token', (_req, res) => json(res, 200, { jwt: issued }));
  const jwt = c.serve(server) ?? issued;
  // A Lambda container keeps its token between invocations: the data route rejects any other case's
  // token, so the client re-authenticates once and meets this case's token endpoint.
  const data = server.routes.get(ROUTE) ?? ((_req, res) => json(res, 200, { data: [], nextCursor: null }));
  server.routes.set(ROUTE, (req, res) =>
    req.headers.authorization === `Bearer ${jwt}`
      ? data(req, res)
      : json(res, 401, { title: 'Unauthorized', detail: 'token not valid here' }),
  );
  return jwt;
}

/** What a run ended in, read from its manifest entry (the same on both paths). */
export function outcomeOf(report: ManifestReport): { status: string; exit: 0 | 1 | 3; text: string } {
  const warnings = report.warnings ?? [];
  const exit = report.status === 'failed' ? 1 : warnings.length > 0 ? 3 : 0;
  return {
    status: report.status,
    exit,
    text: [report.error ?? '', ...warnings.map((w) => w.message)].join('\n'),
  };
}

/** Every form of every secret of a case that must be found nowhere: given, trimmed, CR/LF-stripped; each encoded. */
export function needles(secret: string, jwt: string | undefined): Array<[string, string]> {
  const pieces: Record<string, string> = {
    secret,
    'secret trimmed': secret.trim(),
    'secret without CR/LF': secret.replace(/[\r\n]/g, ''),
  };
  if (jwt !== undefined) {
    const [header = '', payload = '', signature = ''] = jwt.split('.');
    Object.assign(pieces, { jwt, 'jwt header': header, 'jwt payload': payload, 'jwt signature': signature });
  }
  const forms = (s: string): Record<string, string> => ({
    raw: s,
    json: JSON.stringify(s).slice(1, -1),
    url: encodeURIComponent(s),
    base64: Buffer.from(s).toString('base64'),
    base64url: Buffer.from(s).toString('base64url'),
  });
  return Object.entries(pieces).flatMap(([what, value]) =>
    Object.entries(forms(value))
      .filter(([, form]) => form.length >= 8)
      .map(([how, form]): [string, string] => [`${what} (${how})`, form]),
  );
}

/** `what in where` for every needle found in any of `texts` (by name). */
export function leaks(texts: Readonly<Record<string, string>>, found: Array<[string, string]>): string[] {
  const out: string[] = [];
  for (const [where, text] of Object.entries(texts)) {
    for (const [what, form] of found) if (text.includes(form)) out.push(`${what} in ${where}`);
  }
  return out;
}
