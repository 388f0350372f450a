/**
 * The spellings a secret can take in text that comes back to us. A server (or a WAF in front of it)
 * that echoes what it was sent may quote the client secret JSON-escaped (it was sent in a JSON body),
 * URL-encoded, HTML-escaped or base64-encoded, and a JWT whole or one segment at a time. The redactor
 * masks every one of these forms.
 *
 * Base64 of a secret inside a longer base64 text (an echoed request body, encoded) depends on where
 * the secret starts modulo 3 bytes, so each of the three alignments is listed, cut to the characters
 * that depend on the secret alone. A form shorter than `MIN_DERIVED` characters is not listed: it
 * could match ordinary text by chance.
 */

const MIN_DERIVED = 8;

/** Characters that JSON, URL and HTML escaping all leave as they are. */
const PLAIN = /^[A-Za-z0-9._~-]*$/;

/** base64 (std) of `bytes`, unpadded. */
function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64').replace(/=+$/, '');
}

/** The base64 forms of `text` at the three alignments within a longer base64 text (std alphabet). */
function base64Cores(text: string): string[] {
  const bytes = new TextEncoder().encode(text);
  const out: string[] = [];
  // characters of the encoding that also depend on the bytes before (k of them) or after the secret
  const skip = [0, 2, 3];
  for (let k = 0; k < 3; k++) {
    const padded = new Uint8Array(k + bytes.length);
    padded.set(bytes, k);
    const encoded = b64(padded);
    const end = padded.length % 3 === 0 ? encoded.length : encoded.length - 1;
    out.push(encoded.slice(skip[k], end));
  }
  // standing alone, with and without its padding
  out.push(Buffer.from(bytes).toString('base64'), b64(bytes));
  return out;
}

const toUrlAlphabet = (s: string) => s.replace(/\+/g, '-').replace(/\//g, '_');
const toStdAlphabet = (s: string) => s.replace(/-/g, '+').replace(/_/g, '/');

/** `s` as a JSON string body (what JSON.stringify puts between the quotes), and PHP's `\/` variant. */
function jsonForms(s: string): string[] {
  const once = JSON.stringify(s).slice(1, -1);
  const ascii = once.replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return [once, once.replace(/\//g, '\\/'), ascii];
}

function urlForms(s: string): string[] {
  const component = encodeURIComponent(s);
  const form = new URLSearchParams({ x: s }).toString().slice(2);
  return [component, form, component.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())];
}

const HTML: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function htmlForms(s: string): string[] {
  const named = s.replace(/[&<>"']/g, (c) => HTML[c] ?? c);
  return [named, named.replace(/&quot;/g, '&#34;'), named.replace(/&quot;/g, '&#x22;')];
}

/** Every form of one text: raw, JSON-escaped (once and twice), URL-encoded, HTML-escaped. */
function textForms(s: string): string[] {
  // characters no escaping changes (a JWT, base64url): the text is its only form — and a fast path
  // for a megabyte-long token
  if (PLAIN.test(s)) return [s];
  const json = jsonForms(s);
  const twice = json.flatMap(jsonForms);
  return [
    s,
    ...json,
    ...twice,
    ...urlForms(s),
    ...json.flatMap(urlForms),
    ...htmlForms(s),
    ...json.flatMap(htmlForms),
  ];
}

/**
 * The values a secret may have been used as: as given, trimmed of surrounding whitespace (what the
 * exporter sends, see adapters/credentials, and what a server that trims echoes), and with every CR
 * and LF removed (a secret pasted from a Windows `.env` file, echoed by a server that strips them).
 */
export function secretVariants(secret: string): string[] {
  return unique([
    secret,
    secret.trim(),
    secret.replace(/[\r\n]/g, ''),
    secret.replace(/[\r\n]/g, '').trim(),
  ]).filter((v) => v.length > 0);
}

/**
 * Every spelling of `secret` to mask: for each of its variants (`secretVariants`), its text forms
 * and the text forms of the base64 encodings (std and URL alphabets, all alignments) of it and of
 * its JSON-escaped form. A variant itself is always listed; derived forms must be at least 8
 * characters.
 */
export function secretForms(secret: string): string[] {
  const variants = secretVariants(secret);
  // the secret travels JSON-escaped in the token request, so an encoded echo of it holds that form
  const sources = unique(variants.flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]));
  const encodings = sources.flatMap(base64Cores).flatMap((b) => [b, toUrlAlphabet(b)]);
  const all = [...variants.flatMap(textForms), ...encodings.flatMap(textForms)];
  return unique(all).filter((f) => variants.includes(f) || f.length >= MIN_DERIVED);
}

/**
 * The pieces of a JWT to mask besides the whole token: each of its three segments, in its own
 * base64url alphabet and converted to std base64 (with and without padding), each in every form.
 */
export function jwtPieces(jwt: string): string[] {
  const segments = jwt.split('.').filter((s) => s.length > 0);
  if (segments.length < 2) return [];
  return segments.flatMap((seg) => {
    const std = toStdAlphabet(seg);
    const padded = std + '='.repeat((4 - (std.length % 4)) % 4);
    return unique([seg, std, padded]);
  });
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
