/**
 * POST /oauth/token: JSON `{clientId, clientSecret}` → `{jwt}`. Failures are
 * application/problem+json `{type, title, detail}` without a `status` field, as the document says.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Jwt } from './auth';
import type { Reply } from './handlers';

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** The simulator's own fake credentials: one permitted client and one that may not issue tokens. */
export function simulatorCredentials(seed: number): { allowed: Credentials; forbidden: Credentials } {
  const secret = (who: string) =>
    `sim-${createHash('sha256').update(`${who}:${seed}`).digest('hex').slice(0, 24)}`;
  return {
    allowed: { clientId: 'sim-demo-client', clientSecret: secret('demo') },
    forbidden: { clientId: 'sim-forbidden-client', clientSecret: secret('forbidden') },
  };
}

const problem = (status: number, type: string, title: string, detail: string): Reply => ({
  status,
  body: { type: `https://reporting.example.com/problems/${type}`, title, detail },
});

const MAX_BODY = 64 * 1024;

async function readBody(req: IncomingMessage): Promise<string | null> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY) return null;
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function handleToken(
  req: IncomingMessage,
  ctx: {
    jwt: Jwt;
    creds: { allowed: Credentials; forbidden: Credentials };
    ttlSeconds: number;
    nowMs: number;
  },
): Promise<Reply> {
  if (req.method !== 'POST') {
    return {
      ...problem(405, 'method-not-allowed', 'Method not allowed', 'Use POST.'),
      headers: { allow: 'POST' },
    };
  }
  const text = await readBody(req);
  let body: unknown;
  try {
    body = text === null ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  const { clientId, clientSecret } = (typeof body === 'object' && body !== null ? body : {}) as Record<
    string,
    unknown
  >;
  if (typeof clientId !== 'string' || typeof clientSecret !== 'string') {
    return problem(
      400,
      'invalid-request',
      'Invalid request',
      'Send a JSON body with string fields clientId and clientSecret.',
    );
  }
  const { allowed, forbidden } = ctx.creds;
  if (clientId === forbidden.clientId && clientSecret === forbidden.clientSecret) {
    return problem(
      403,
      'client-not-permitted',
      'Client not permitted',
      'This client may not issue tokens. Contact the account team.',
    );
  }
  if (clientId !== allowed.clientId || clientSecret !== allowed.clientSecret) {
    return problem(
      401,
      'invalid-client',
      'Invalid client credentials',
      'clientId or clientSecret not accepted.',
    );
  }
  return { status: 200, body: { jwt: ctx.jwt.sign(clientId, ctx.ttlSeconds, ctx.nowMs) } };
}
