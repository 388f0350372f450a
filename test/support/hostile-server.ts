/** A loopback Reporting API that misbehaves on purpose, one handler per route (not a test file). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { freePort } from './ports';

export interface HostileRequest {
  readonly method: string;
  readonly path: string;
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export type HostileHandler = (req: HostileRequest, res: ServerResponse) => void | Promise<void>;

export interface HostileServer {
  readonly baseUrl: string;
  /** Route handlers by path (`/oauth/token`, `/v2/posts/performance`); unknown paths answer 404. */
  readonly routes: Map<string, HostileHandler>;
  readonly requests: HostileRequest[];
  close(): Promise<void>;
}

/**
 * Starts the server on a free loopback port. With `issueTokens`, `/oauth/token` already answers with
 * a JWT that never expires in a test (replace the route to misbehave there too). `maxHeaderSize`
 * raises Node's 16 KB limit on request headers (a megabyte-long JWT in `authorization`).
 */
export async function startHostileServer(
  options: { issueTokens?: boolean; maxHeaderSize?: number } = {},
): Promise<HostileServer> {
  const routes = new Map<string, HostileHandler>();
  if (options.issueTokens) {
    routes.set('/oauth/token', (_req, res) => json(res, 200, { jwt: jwtOf({ sub: 'c', exp: 4e9 }) }));
  }
  const requests: HostileRequest[] = [];
  const server = createServer({ maxHeaderSize: options.maxHeaderSize ?? 16 * 1024 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const seen = {
        method: req.method ?? 'GET',
        path: url.pathname,
        url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      const handler = routes.get(url.pathname);
      if (!handler) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"title":"Not Found"}');
        return;
      }
      Promise.resolve(handler(seen, res)).catch(() => res.destroy());
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    routes,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** An unsigned HS256-shaped JWT with these claims. */
export function jwtOf(claims: Record<string, unknown>): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const signature = Buffer.from(`sig-${JSON.stringify(claims)}-${Math.random()}`).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}.${signature}`;
}
