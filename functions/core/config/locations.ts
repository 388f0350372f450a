/**
 * Rules for the two places a config names a location: `api.baseUrl` and `output.prefix`. Both are
 * checked by the one config schema, so `validate`, `run` and `cdk synth` refuse the same values.
 *
 * - A base URL may not carry credentials (they would be embedded in every bundle and sent in every
 *   request), a query or a fragment (request URLs are `{baseUrl}/v2/{route}?{query}`, which either
 *   would mangle). A message about a base URL never prints a user name or password.
 * - A prefix is a plain key prefix: S3 keys are compared literally, so `./exp/` and `exp/`, or
 *   `a//b/` and `a/b/`, would be different objects on S3 but the same folder locally, and stale-part
 *   cleanup would compare keys that no longer match. Such prefixes are refused with the spelling to
 *   use instead, as are `..` (escapes the folder), a leading `/` and glob characters (`*` and co.).
 */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The base URL as it may be shown: scheme, host, port and path, never user info, query or fragment. */
export function showUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/** Every problem with a base URL, in plain words (empty when it is fine). */
export function baseUrlProblems(value: string): string[] {
  if (!URL.canParse(value)) return []; // the URL check itself reports this, without echoing it
  const url = new URL(value);
  const shown = showUrl(url);
  const problems: string[] = [];
  if (url.username !== '' || url.password !== '') {
    problems.push(
      `baseUrl must not carry a user name or password ("${shown}" without them); credentials belong in the api.credentialsSecret secret`,
    );
  }
  if (url.search !== '' || value.includes('?')) {
    problems.push(
      `baseUrl must not have a query ("?…"): the exporter builds each request's query; use "${shown}" and put extra parameters in a report's params`,
    );
  }
  if (url.hash !== '' || value.includes('#')) {
    problems.push(`baseUrl must not have a fragment ("#…"); use "${shown}"`);
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  if (!secure) {
    problems.push(
      `baseUrl must use https (http is allowed only for localhost and 127.0.0.1), got "${shown}"`,
    );
  }
  return problems;
}

/** Glob and wildcard characters: a reader's `*` pattern over such a prefix matches other folders. */
const GLOB = /[*?[\]{}]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/** What is wrong with an output prefix (null when fine), with the spelling to use where there is one. */
export function prefixProblem(prefix: string): string | null {
  if (prefix === '') return null;
  if (CONTROL.test(prefix)) return 'prefix may not contain control characters or line breaks';
  if (prefix.includes('\\')) return 'prefix may not contain "\\"; S3 keys use "/" between folders';
  if (GLOB.test(prefix)) {
    return `prefix may not contain any of * ? [ ] { } (a reader's glob over the exports would match other folders), got "${prefix}"`;
  }
  const segments = prefix.split('/');
  if (segments.includes('..')) {
    return `prefix may not contain ".." (it would write outside the export folder), got "${prefix}"`;
  }
  if (!prefix.endsWith('/') || prefix.startsWith('/')) {
    return `prefix must be empty or end with "/" and not start with "/" (e.g. "exports/"), got "${prefix}"`;
  }
  const clean = segments.filter((s) => s !== '' && s !== '.');
  if (clean.length !== segments.length - 1) {
    // the last segment is the empty one after the final "/"
    const suggestion = clean.length === 0 ? '""' : `"${clean.join('/')}/"`;
    return `prefix must be a plain key prefix without "./" or "//" (S3 compares keys literally, so "${prefix}" and ${suggestion} would be different objects); write ${suggestion}`;
  }
  return null;
}
