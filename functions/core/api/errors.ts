/**
 * HTTP failures → ExporterError with a stable code (docs/api-assumptions.md: errors on data routes).
 * A message names the method, route, status and the server's own words (`title`/`detail`/`message`,
 * else the first 2 KB of text); details hold route, status and the request id a header gave. Server
 * text is untrusted: callers pass everything through the client's redactor before it leaves.
 */
import { STATUS_CODES } from 'node:http';
import { type ErrorCode, ExporterError } from '../errors';

/** How much of a non-JSON (or unhelpful JSON) body goes into a message. */
export const BODY_SNIPPET_CHARS = 2048;
/** Headers servers and gateways commonly use to identify a request. */
const REQUEST_ID_HEADERS = [
  'x-request-id',
  'request-id',
  'x-amzn-requestid',
  'x-correlation-id',
  'x-trace-id',
];

export type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** What the client saw of one failed response. */
export interface HttpFailure {
  readonly method: 'GET' | 'POST';
  /** The path shown to the user: `/v2/campaigns/performance` or `/oauth/token`. */
  readonly path: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

export function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function requestIdOf(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const v = header(headers, name);
    if (v) return v.slice(0, 200);
  }
  return undefined;
}

const clean = (s: string) =>
  s
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The server's own explanation: its `title`, `detail`, `message` (or `error`), else a text snippet. */
export function serverText(body: string): string {
  const json = parseJson(body);
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const o = json as Record<string, unknown>;
    const nested =
      typeof o.error === 'object' && o.error !== null ? (o.error as Record<string, unknown>) : {};
    const parts = [o.title, o.detail, o.message, typeof o.error === 'string' ? o.error : nested.message]
      .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
      .map(clean);
    // servers often repeat themselves (`message` = `${title}: ${detail}`): keep each fact once
    let kept: string[] = [];
    for (const part of parts) {
      if (kept.join(': ').includes(part)) continue;
      kept = kept.every((k) => part.includes(k)) ? [part] : [...kept, part];
    }
    if (kept.length > 0) return kept.join(': ').slice(0, BODY_SNIPPET_CHARS);
  }
  return clean(body.slice(0, BODY_SNIPPET_CHARS));
}

const VALID_SET_KEY = /^(valid|allowed|supported|permitted|available|accepted)/i;
/** Arrays that name what was wrong or what was sent, never the valid set. */
const NOT_VALID_SET_KEY =
  /invalid|unknown|unsupported|rejected|requested|sent|given|bad|wrong|instance|campaign/i;

/**
 * The valid metric names a 400 body names. The field is not documented, so every array of strings in
 * the body counts (searched a few levels deep): one whose key reads like a valid set (`validMetrics`,
 * `allowed`, `supportedValues`…) first, else the first whose key does not name the wrong or the sent
 * values (`invalidMetrics`, `requested`…) and that is not just the metrics we sent.
 */
export function validSetOf(body: string, sent: readonly string[] = []): string[] | null {
  const arrays: { key: string; values: string[] }[] = [];
  const search = (value: unknown, depth: number): void => {
    if (depth > 4 || value === null || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value)) {
      if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string')) {
        arrays.push({ key, values: (v as string[]).map(clean) });
      } else search(v, depth + 1);
    }
  };
  search(parseJson(body), 0);
  const named = arrays.find((a) => VALID_SET_KEY.test(a.key));
  if (named) return named.values;
  const same = (a: readonly string[]) => a.length === sent.length && a.every((v) => sent.includes(v));
  return arrays.find((a) => !NOT_VALID_SET_KEY.test(a.key) && !same(a.values))?.values ?? null;
}

function statusLine(status: number): string {
  const text = STATUS_CODES[status];
  return text ? `${status} ${text}` : String(status);
}

function baseDetails(f: HttpFailure): Record<string, unknown> {
  const requestId = requestIdOf(f.headers);
  return { route: f.path, status: f.status, ...(requestId ? { requestId } : {}) };
}

/** How a message says retries ended: nothing for a first-attempt failure. */
export function attemptsNote(attempts: number, outOfTime = false): string {
  if (outOfTime) return ` (stopped after ${attempts} attempt(s): the next wait would pass the deadline)`;
  return attempts > 1 ? ` (gave up after ${attempts} attempts)` : '';
}

/** Context a data-route error message may name: what the request sent. */
export interface SentContext {
  readonly instanceIds?: readonly string[];
  readonly metrics?: readonly string[];
}

/** A non-retried (or finally failed) data-route response → its ExporterError. */
export function dataRouteError(
  f: HttpFailure,
  sent: SentContext = {},
  attempts = 1,
  outOfTime = false,
): ExporterError {
  const said = serverText(f.body);
  const head = `${f.method} ${f.path} answered ${statusLine(f.status)}${said ? `: ${said}` : ''}`;
  const details = { ...baseDetails(f), attempts };
  const code = codeForStatus(f.status);
  if (f.status === 400) {
    const valid = validSetOf(f.body, sent.metrics ?? []);
    const tail = valid ? ` (valid metrics named by the server: ${valid.join(', ')})` : '';
    return new ExporterError(code, `${head}${tail}`, {
      details: { ...details, ...(valid ? { validMetrics: valid } : {}), metrics: sent.metrics ?? [] },
    });
  }
  if (f.status === 403) {
    const ids = sent.instanceIds ?? [];
    const tail =
      ids.length > 0
        ? ` — instanceIds sent: ${ids.join(', ')}; each must be one of the instances bound to this client`
        : ' — no instanceIds were sent, so the client is not permitted on this route at all';
    return new ExporterError(code, `${head}${tail}`, { details: { ...details, instanceIds: ids } });
  }
  const retryable = code === 'API_RATE_LIMITED' || code === 'API_SERVER_ERROR';
  return new ExporterError(code, `${head}${attemptsNote(attempts, outOfTime)}`, { retryable, details });
}

function codeForStatus(status: number): ErrorCode {
  if (status === 400) return 'API_BAD_REQUEST';
  if (status === 401) return 'API_UNAUTHORIZED';
  if (status === 403) return 'API_FORBIDDEN';
  if (status === 404) return 'API_NOT_FOUND';
  if (status === 429) return 'API_RATE_LIMITED';
  if (status >= 500) return 'API_SERVER_ERROR';
  return 'API_BAD_REQUEST';
}

/** A token-endpoint failure → AUTH_REJECTED (401), AUTH_FORBIDDEN (403) or AUTH_FAILED. */
export function tokenError(f: HttpFailure, attempts = 1, outOfTime = false): ExporterError {
  const said = serverText(f.body);
  const what = `${f.method} ${f.path} answered ${statusLine(f.status)}${said ? `: ${said}` : ''}`;
  const details = { ...baseDetails(f), attempts };
  if (f.status === 401) {
    return new ExporterError('AUTH_REJECTED', `credentials rejected — check the secret (${what})`, {
      details,
    });
  }
  if (f.status === 403) {
    return new ExporterError(
      'AUTH_FORBIDDEN',
      `client not permitted — retrying will not help, contact the provider's account team (${what})`,
      { details },
    );
  }
  const retryable = f.status === 429 || f.status >= 500;
  return new ExporterError(
    'AUTH_FAILED',
    `could not obtain a token (${what})${attemptsNote(attempts, outOfTime)}`,
    {
      retryable,
      details,
    },
  );
}
