/**
 * Belt and braces for "nothing secret in any error or log line": messages are built from routes,
 * statuses and server text only, but server text is untrusted (a server may echo what it was sent),
 * so every string leaving the client passes through the redactor, which knows the client secret and
 * every JWT the client has held.
 */
export interface Redactor {
  /**
   * Remember a value that must never appear in output (ignored when shorter than 4 characters).
   * `pinned` values (the client secret) are kept for good; others (tokens) only the latest 32.
   */
  add(secret: string, pinned?: boolean): void;
  /** `text` with every remembered secret, and anything shaped like a bearer token or JWT, masked. */
  text(text: string): string;
}

const JWT_SHAPE = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi;
const MASK = '[redacted]';
const MAX_TOKENS = 32;

export function createRedactor(): Redactor {
  const pinned: string[] = [];
  const tokens: string[] = [];
  const text = (input: string): string => {
    let out = input.replace(JWT_SHAPE, MASK).replace(BEARER, `$1 ${MASK}`);
    // longest first, so a secret that contains another is masked whole
    const all = [...pinned, ...tokens].sort((a, b) => b.length - a.length);
    for (const s of all) {
      if (out.includes(s)) out = out.split(s).join(MASK);
    }
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
    },
    text,
  };
}
