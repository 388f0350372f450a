/**
 * HS256 JWTs for the simulated token route, built on node:crypto. The signing key derives from the
 * seed so tokens are stable across runs only in format, never accepted by another simulator seed.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const LEEWAY_SECONDS = 1;

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export class Jwt {
  private readonly key: Buffer;
  constructor(seed: number) {
    this.key = createHmac('sha256', 'report-exporter-simulator-jwt').update(String(seed)).digest();
  }

  /** A signed token for `sub`, valid `ttlSeconds` from now. */
  sign(sub: string, ttlSeconds: number, nowMs = Date.now()): string {
    const iat = Math.floor(nowMs / 1000);
    const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const body = b64url(JSON.stringify({ sub, iat, exp: iat + ttlSeconds }));
    return `${head}.${body}.${this.mac(`${head}.${body}`)}`;
  }

  /** The subject of a valid, unexpired token, or why it is not accepted. */
  verify(token: string, nowMs = Date.now()): { sub: string } | { error: string } {
    const parts = token.split('.');
    if (parts.length !== 3) return { error: 'malformed token' };
    const [head, body, sig] = parts as [string, string, string];
    const want = Buffer.from(this.mac(`${head}.${body}`));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return { error: 'invalid signature' };
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return { error: 'malformed token' };
    }
    if (typeof claims !== 'object' || claims === null) return { error: 'malformed token' };
    const { sub, exp } = claims as { sub?: unknown; exp?: unknown };
    if (typeof sub !== 'string' || typeof exp !== 'number') return { error: 'malformed token' };
    // exp has one-second resolution and iat is rounded down, so a token could otherwise live up to
    // a second less than its ttl; one second of leeway (RFC 7519 §4.1.4 allows some) keeps every
    // token valid for at least ttl seconds, which short-ttl tests rely on
    if (nowMs >= (exp + LEEWAY_SECONDS) * 1000) return { error: 'token expired' };
    return { sub };
  }

  private mac(data: string): string {
    return createHmac('sha256', this.key).update(data).digest('base64url');
  }
}
