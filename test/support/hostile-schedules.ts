/**
 * Issue 23's hostile schedules and operator habits, shared by the CLI test (test/e2e/hostile-run.test.ts)
 * and the deployed bundles' test (test/handlers/hostile-run-workflow.e2e.test.ts), so both paths meet
 * the same config and server and must end the same way. Not a test file.
 */
import { type HostileServer, json } from './hostile-server';

export const AT = '2026-11-23T06:00:00Z';
export const SECRET = 'op-habits/s3cret+value & more-0123456789';
export const CLIENT_ID = 'client-23b';
export const PROTO = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];

/** The message every report of a run fails with after the token route's 403. */
export const TOKEN_403_MESSAGE =
  "client not permitted — retrying will not help, contact the provider's account team (POST /oauth/token answered 403 Forbidden: Client not permitted: Contact the account team.)";

/** The message a run stops with, before any report, when the config's secret does not exist. */
export const SECRET_MISSING_MESSAGE =
  'secret "test/reporting" was not found in Secrets Manager: create it with a SecretString {"clientId","clientSecret"}, or set REPORTING_CLIENT_ID and REPORTING_CLIENT_SECRET for a local run';

/** …and when it exists without a client secret. */
export const SECRET_HALF_MESSAGE =
  'secret "test/reporting" lacks non-empty string field(s) clientSecret; expected a SecretString of JSON {"clientId": "…", "clientSecret": "…"}';

/**
 * Schedules `four` (four reports, concurrency 4) and `proto` (names from Object's prototype, lookback
 * 1); with `big`, also `big`, 500 reports — over the deployment limits.
 */
export function schedulesConfig(baseUrl: string, big = false): string {
  const report = (id: string) => `      - { id: ${id}, route: posts/performance, metrics: [likes] }`;
  const many = Array.from({ length: 500 }, (_, i) => report(`r${i}`)).join('\n');
  const bigSchedule = `  - id: big\n    cron: "0 6 * * ? *"\n    window: yesterday\n    reports:\n${many}\n`;
  return `api: { baseUrl: "${baseUrl}", credentialsSecret: test/reporting, maxRetries: 0, concurrency: 4 }
output: { prefix: exports/, formats: [csv] }
email: { from: Reports <reports@example.com>, operators: [ops@example.com] }
schedules:
  - id: four
    cron: "0 6 * * ? *"
    window: yesterday
    recipients: [team@example.com]
    reports:
${['a', 'b', 'c', 'd'].map(report).join('\n')}
  - id: proto
    cron: "0 6 * * ? *"
    window: yesterday
    lookback: 1
    recipients: [team@example.com]
    reports:
      - id: constructor
        route: posts/performance
        metrics: [${PROTO.join(', ')}, likes]
        summary: { kpis: [${PROTO.join(', ')}], topBy: constructor, topN: 3 }
${big ? bigSchedule : ''}`;
}

/** The token route answers 403 "client not permitted" (problem+json). */
export function forbidTokens(server: HostileServer): void {
  server.routes.set('/oauth/token', (_req, res) =>
    json(
      res,
      403,
      { title: 'Client not permitted', detail: 'Contact the account team.' },
      { 'content-type': 'application/problem+json' },
    ),
  );
}

/** Tokens issued, and a data route of two rows carrying every requested metric (`__proto__` too). */
export function serveRows(server: HostileServer): void {
  server.routes.clear();
  server.routes.set('/oauth/token', (_req, res) => json(res, 200, { jwt: 'a.b.c' }));
  server.routes.set('/v2/posts/performance', (req, res) => {
    const metrics = Object.fromEntries(req.url.searchParams.getAll('metrics').map((m, i) => [m, i + 1]));
    json(res, 200, {
      data: [
        { postId: 'p1', name: 'first', metrics },
        { postId: 'p2', name: 'second', metrics },
      ],
      nextCursor: null,
    });
  });
}

/** The token and data requests `server` saw after its first `before` requests. */
export function requestsSince(server: HostileServer, before: number): { token: number; data: number } {
  const sent = server.requests.slice(before);
  return {
    token: sent.filter((q) => q.path === '/oauth/token').length,
    data: sent.filter((q) => q.path.startsWith('/v2/')).length,
  };
}

/** The totals the rows of `serveRows` add up to for the `proto` report. */
export const PROTO_TOTALS: unknown = JSON.parse(
  '{"constructor": 2, "toString": 4, "__proto__": 6, "hasOwnProperty": 8, "likes": 10}',
);
