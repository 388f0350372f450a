/**
 * Belt and braces for "nothing secret in any error or log line": messages are built from routes,
 * statuses and server text only, but server text is untrusted (a server, or a WAF in front of it, may
 * echo what it was sent), so every string leaving the client passes through the redactor. It knows
 * the client secret and every JWT the client has held, and masks each of them — and each segment of
 * a JWT — in every form `./secret-forms` lists (raw, JSON-escaped, URL-encoded, HTML-escaped,
 * base64 in both alphabets), plus anything shaped like a bearer token or a JWT.
 */
import { ExporterError } from '../errors';
import type { Log, LogFields } from '../log';
import { jwtPieces, secretForms } from './secret-forms';

export interface Redactor {
  /**
   * Remember a value that must never appear in output (ignored when shorter than 4 characters).
   * `pinned` values (the client secret) are kept for good; others (tokens) only the latest 32.
   */
  add(secret: string, pinned?: boolean): void;
  /** `text` with every remembered secret, and anything shaped like a bearer token or JWT, masked. */
  text(text: string): string;
  /** A deep copy of `value` with every string (keys included) redacted. */
  value<T>(value: T): T;
}

const JWT_SHAPE = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi;
const MASK = '[redacted]';
const MAX_TOKENS = 32;
/** Deeper structures are cut (they come from our own errors and log fields, never this deep). */
const MAX_DEPTH = 16;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function createRedactor(): Redactor {
  const pinned: string[] = [];
  const tokens: string[] = [];
  let pattern: RegExp | null = null;
  let dirty = false;

  /** One alternation of every form of every secret, longest first so a longer form wins. */
  const compiled = (): RegExp | null => {
    if (!dirty) return pattern;
    dirty = false;
    const forms = new Set<string>();
    for (const s of pinned) for (const f of secretForms(s)) forms.add(f);
    for (const t of tokens) {
      for (const f of secretForms(t)) forms.add(f);
      for (const piece of jwtPieces(t)) for (const f of secretForms(piece)) forms.add(f);
    }
    const sorted = [...forms].filter((f) => f.length >= 4).sort((a, b) => b.length - a.length);
    pattern = sorted.length === 0 ? null : new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
    return pattern;
  };

  const text = (input: string): string => {
    const re = compiled();
    const known = re === null ? input : input.replace(re, MASK);
    return known.replace(JWT_SHAPE, MASK).replace(BEARER, `$1 ${MASK}`);
  };

  const copy = (input: unknown, depth: number): unknown => {
    if (typeof input === 'string') return text(input);
    if (input === null || typeof input !== 'object') return input;
    if (depth >= MAX_DEPTH) return MASK;
    if (Array.isArray(input)) return input.map((v) => copy(v, depth + 1));
    // a null-prototype copy: a key such as "__proto__" stays a plain key
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(input)) out[text(k)] = copy(v, depth + 1);
    return out;
  };

  return {
    add(secret: string, keep = false) {
      if (secret.length < 4 || pinned.includes(secret) || tokens.includes(secret)) return;
      if (keep) pinned.push(secret);
      else {
        tokens.push(secret);
        if (tokens.length > MAX_TOKENS) tokens.shift();
      }
      dirty = true;
    },
    text,
    value: <T>(input: T): T => copy(input, 0) as T,
  };
}

/**
 * `err` with its message and details redacted. An ExporterError keeps its code and retryable flag but
 * not its cause (a cause may quote the server; the code and details already say what happened);
 * anything else becomes INTERNAL with its redacted message. An abort passes through unchanged.
 */
export function redactError(redactor: Redactor, err: unknown): unknown {
  if (err instanceof ExporterError) {
    return new ExporterError(err.code, redactor.text(err.message), {
      retryable: err.retryable,
      details: redactor.value({ ...err.details }),
    });
  }
  if (err instanceof Error && err.name === 'AbortError') return err;
  if (err instanceof Error) {
    const redacted = new Error(redactor.text(err.message));
    redacted.name = err.name;
    return redacted;
  }
  return new Error(redactor.text(String(err)));
}

/** `log` with every message and field redacted. */
export function redactingLog(log: Log, redactor: Redactor): Log {
  const wrap =
    (write: Log['info']) =>
    (message: string, fields?: LogFields): void =>
      write(redactor.text(message), fields === undefined ? undefined : redactor.value({ ...fields }));
  return {
    debug: wrap((m, f) => log.debug(m, f)),
    info: wrap((m, f) => log.info(m, f)),
    warn: wrap((m, f) => log.warn(m, f)),
    error: wrap((m, f) => log.error(m, f)),
  };
}
