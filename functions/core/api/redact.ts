/**
 * Belt and braces for "nothing secret in any error or log line": messages are built from routes,
 * statuses and server text only, but server text is untrusted (a server, or a WAF in front of it, may
 * echo what it was sent), so every string leaving the client passes through the redactor. It knows
 * the client secret and every JWT the client has held, and masks each of them — and each segment of
 * a JWT — in every form `./secret-forms` lists (as given, trimmed, CR/LF-stripped; raw, JSON-escaped,
 * URL-encoded, HTML-escaped, base64 in both alphabets), plus anything shaped like a bearer token or a
 * JWT. The forms are found by literal search, for secrets of any size; a failure of the redactor
 * itself yields `REDACTION_FAILED`, never the text it was given.
 */
import { ExporterError } from '../errors';
import type { Log, LogFields } from '../log';
import { jwtPieces, secretForms } from './secret-forms';

export interface Redactor {
  /**
   * Remember a value that must never appear in output (ignored when shorter than 4 characters).
   * `pinned` values (the client secret) are kept for good; others (tokens) only the latest 32, and
   * of those only as many of the latest as hold 4 Mi characters together (at least the latest).
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
/** What a text becomes when masking it failed: never the text itself, which may hold a secret. */
export const REDACTION_FAILED = '[redacted: the text could not be checked for secrets]';
const MAX_TOKENS = 32;
/**
 * Characters of remembered tokens kept at most (their forms take ~15× as much): a server issuing a
 * megabyte-long JWT per request must not fill the Lambda's memory. The latest token is always kept.
 */
const MAX_TOKEN_CHARS = 4 * 1024 * 1024;
/** Deeper structures are cut (they come from our own errors and log fields, never this deep). */
const MAX_DEPTH = 16;

export function createRedactor(): Redactor {
  const pinned: string[] = [];
  const tokens: string[] = [];
  let forms: readonly string[] | null = null;

  /**
   * Every form of every secret, longest first. Searched for one by one (`maskForms`), never compiled
   * into one RegExp: V8 refuses a pattern of a large JWT's forms (~17 KB and up), and its error
   * message would be the pattern — the secrets.
   */
  const known = (): readonly string[] => {
    if (forms !== null) return forms;
    const all = new Set<string>();
    for (const s of pinned) for (const f of secretForms(s)) all.add(f);
    for (const t of tokens) {
      for (const f of secretForms(t)) all.add(f);
      for (const piece of jwtPieces(t)) for (const f of secretForms(piece)) all.add(f);
    }
    forms = [...all].filter((f) => f.length >= MIN_SECRET_CHARS).sort((a, b) => b.length - a.length);
    return forms;
  };

  const text = (input: string): string => {
    try {
      return maskForms(input, known()).replace(JWT_SHAPE, MASK).replace(BEARER, `$1 ${MASK}`);
    } catch {
      // e.g. out of memory on a huge text: say so without the text
      return REDACTION_FAILED;
    }
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
      if (secret.length < MIN_SECRET_CHARS || pinned.includes(secret) || tokens.includes(secret)) return;
      if (keep) pinned.push(secret);
      else {
        tokens.push(secret);
        let chars = tokens.reduce((n, t) => n + t.length, 0);
        while (tokens.length > 1 && (tokens.length > MAX_TOKENS || chars > MAX_TOKEN_CHARS)) {
          chars -= tokens.shift()?.length ?? 0;
        }
      }
      forms = null;
    },
    text,
    value: <T>(input: T): T => {
      try {
        return copy(input, 0) as T;
      } catch {
        return REDACTION_FAILED as T;
      }
    },
  };
}

/** Shorter secrets are not remembered: masking every "abc" in a message would hide the message. */
const MIN_SECRET_CHARS = 4;

/**
 * `input` with every occurrence of every form masked: a literal search (`indexOf`, linear in the
 * text for each form) collects the spans, overlapping spans merge, and each merged span becomes one
 * MASK — so a form inside a longer one, or two overlapping forms, leave no piece of either behind.
 */
export function maskForms(input: string, forms: readonly string[]): string {
  const spans: Array<[number, number]> = [];
  for (const form of forms) {
    if (form.length > input.length) continue;
    for (let at = input.indexOf(form); at !== -1; at = input.indexOf(form, at + 1)) {
      spans.push([at, at + form.length]);
    }
  }
  if (spans.length === 0) return input;
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let done = 0;
  let [start, end] = spans[0] as [number, number];
  for (const [s, e] of spans) {
    if (s <= end) {
      end = Math.max(end, e);
      continue;
    }
    out += input.slice(done, start) + MASK;
    done = end;
    [start, end] = [s, e];
  }
  return out + input.slice(done, start) + MASK + input.slice(end);
}

/**
 * `err` with its message and details redacted. An ExporterError keeps its code and retryable flag but
 * not its cause (a cause may quote the server; the code and details already say what happened);
 * anything else becomes INTERNAL with its redacted message. An abort passes through unchanged.
 */
export function redactError(redactor: Redactor, err: unknown): unknown {
  try {
    return redactedError(redactor, err);
  } catch {
    // never the original: its message may be the secret the redactor failed on
    return new ExporterError('INTERNAL', REDACTION_FAILED);
  }
}

function redactedError(redactor: Redactor, err: unknown): unknown {
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
