/**
 * The token manager (docs/api-assumptions.md: token request, token expiry). One token per client, reused until
 * 5 minutes before its `exp`; concurrent callers share one in-flight token request; a data route's
 * 401 asks for a replacement of the token it used, and callers that were rejected with the same token
 * share the one re-authentication. A token route that refused the credentials (401 or 403) is not
 * asked again by this manager: every later caller gets the same error (`isFinal`).
 *
 * The JWT's payload is decoded without verifying the signature — we are not its audience, only its
 * bearer — and its `exp` trusted; a token without `exp` is treated as valid 12 h from issue. For a
 * token that lives less than 10 minutes (test servers), the margin shrinks to half its lifetime so
 * it is still reused at all.
 */
import * as z from 'zod/mini';
import { ExporterError } from '../errors';

export const REFRESH_MARGIN_MS = 5 * 60_000;
export const DEFAULT_LIFETIME_MS = 12 * 60 * 60_000;
const SKEWED_REUSE_MS = 60_000;

/** The 200 body of the token route. */
export const TokenResponseSchema = z.object({ jwt: z.string().check(z.minLength(1)) });

/**
 * `C` is the caller's call (its deadline and retry hook, for the client): a token request runs under
 * the call that started it; concurrent callers share it.
 */
export interface TokenManager<C = undefined> {
  /** A token fresh enough to use now; fetches one (once, for all concurrent callers) when needed. */
  get(call?: C): Promise<string>;
  /** A replacement for `rejected`, which a data route refused with 401. */
  refresh(rejected: string, call?: C): Promise<string>;
}

export interface TokenManagerOptions<C = undefined> {
  /** Performs the token request (with its retries) for `call` and returns the JWT. */
  readonly fetchToken: (call?: C) => Promise<string>;
  readonly now: () => number;
  /**
   * Whether a failed token request is final for these credentials (a 401 or 403 of the token route):
   * every later `get`/`refresh` then fails with that same error without asking again. Concurrent
   * callers sharing the in-flight request is not enough: a caller that starts after it failed would
   * ask again (four reports at concurrency 4 made two token requests).
   */
  readonly isFinal?: (err: unknown) => boolean;
  /**
   * The run a call belongs to: a final failure ends token requests for that run only, so a container
   * that outlives it (a warm Lambda) asks again for the next run. Absent = one scope (a CLI process).
   */
  readonly scopeOf?: (call?: C) => string | undefined;
}

/** Final failures remembered per scope (the latest runs of a long-lived container). */
const MAX_FINAL_SCOPES = 16;

/** The `exp` claim in ms since the epoch, or null when the token has none (or is not a JWT). */
export function jwtExpiryMs(jwt: string): number | null {
  const payload = jwt.split('.')[1];
  if (payload === undefined) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (claims === null || typeof claims !== 'object') return null;
    const exp = (claims as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** When a token issued at `issuedAtMs` should be replaced. */
export function refreshAtMs(jwt: string, issuedAtMs: number): number {
  const expiresAt = jwtExpiryMs(jwt) ?? issuedAtMs + DEFAULT_LIFETIME_MS;
  const lifetime = expiresAt - issuedAtMs;
  // already expired by our clock (skew): use it briefly and let a 401 trigger the re-auth, rather
  // than fetching a new token for every request
  if (lifetime <= 0) return issuedAtMs + SKEWED_REUSE_MS;
  const margin = Math.min(REFRESH_MARGIN_MS, Math.max(0, lifetime / 2));
  return expiresAt - margin;
}

export function createTokenManager<C = undefined>(options: TokenManagerOptions<C>): TokenManager<C> {
  let current: { jwt: string; refreshAt: number } | null = null;
  let inflight: Promise<string> | null = null;
  const finals = new Map<string, unknown>();
  const scope = (call?: C) => options.scopeOf?.(call) ?? '';
  const finalOf = (call?: C) => (finals.has(scope(call)) ? { error: finals.get(scope(call)) } : null);

  const fetchOnce = (call?: C): Promise<string> => {
    const final = finalOf(call);
    if (final) return Promise.reject(final.error);
    if (inflight) return inflight;
    // issue time is taken before the request, so a slow token route errs on the early side
    const issuedAt = options.now();
    inflight = options
      .fetchToken(call)
      .then((jwt) => {
        current = { jwt, refreshAt: refreshAtMs(jwt, issuedAt) };
        return jwt;
      })
      .catch((err: unknown) => {
        if (options.isFinal?.(err)) {
          finals.set(scope(call), err);
          for (const old of finals.keys()) if (finals.size > MAX_FINAL_SCOPES) finals.delete(old);
        }
        throw err;
      })
      .finally(() => {
        inflight = null;
      });
    return inflight;
  };

  const fresh = () => (current !== null && options.now() < current.refreshAt ? current.jwt : null);

  return {
    async get(call?: C) {
      return fresh() ?? fetchOnce(call);
    },
    async refresh(rejected: string, call?: C) {
      const final = finalOf(call);
      if (final) throw final.error;
      if (inflight) return inflight;
      const jwt = fresh();
      // another caller already replaced the rejected token: use the replacement
      if (jwt !== null && jwt !== rejected) return jwt;
      current = null;
      return fetchOnce(call);
    },
  };
}

/**
 * The credentials as sent: the client id and secret trimmed of surrounding whitespace (a secret
 * pasted from a Windows `.env` file ends in CR LF, one from a terminal in a space or newline, and
 * no server's secret has them). CREDENTIALS_INVALID when one is empty once trimmed.
 */
export function trimmedCredentials(creds: { readonly clientId: string; readonly clientSecret: string }): {
  clientId: string;
  clientSecret: string;
} {
  const clientId = creds.clientId.trim();
  const clientSecret = creds.clientSecret.trim();
  const blank = [clientId === '' ? 'clientId' : '', clientSecret === '' ? 'clientSecret' : ''].filter(
    Boolean,
  );
  if (blank.length > 0) {
    throw new ExporterError(
      'CREDENTIALS_INVALID',
      `the API credentials' ${blank.join(' and ')} ${blank.length > 1 ? 'are' : 'is'} empty or only whitespace; set REPORTING_CLIENT_ID and REPORTING_CLIENT_SECRET, or the secret's {"clientId","clientSecret"}`,
      { details: { fields: blank.join(', ') } },
    );
  }
  return { clientId, clientSecret };
}

/** `json`: `{"clientId","clientSecret"}`; `form`: an OAuth 2.0 client-credentials form body. */
export type TokenRequestFormat = 'json' | 'form';

/** Headers and body of the token request in the chosen format (the body holds the secret). */
export function tokenRequestBody(
  creds: { readonly clientId: string; readonly clientSecret: string },
  format: TokenRequestFormat,
  headers: Readonly<Record<string, string>>,
): { headers: Record<string, string>; body: string } {
  if (format === 'form') {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: creds.clientId,
      client_secret: creds.clientSecret,
    }).toString();
    return { headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body };
  }
  const body = JSON.stringify({ clientId: creds.clientId, clientSecret: creds.clientSecret });
  return { headers: { ...headers, 'content-type': 'application/json' }, body };
}

/** The JWT from a 2xx token answer; AUTH_FAILED when the body has no `jwt` string. */
export function parseToken(text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = TokenResponseSchema.safeParse(json);
  if (!parsed.success) {
    // never echo the body: it may hold a token in an unexpected field
    throw new ExporterError(
      'AUTH_FAILED',
      'POST /oauth/token answered 2xx without a "jwt" string in its body',
      {
        details: { route: '/oauth/token' },
      },
    );
  }
  return parsed.data.jwt;
}
