/**
 * Transport failures (no HTTP status): which are worth retrying — resets and timeouts — and the
 * error raised when they outlast the retries. Classified by the stable `code` undici and Node put on
 * their errors, looked up along the `cause` chain.
 */
import { ExporterError } from '../errors';
import { attemptsNote } from './errors';

/** Why a thrown transport error is worth retrying, or null when it is not a transport failure. */
export function networkFailureKind(err: unknown): 'timeout' | 'reset' | null {
  const code = errorCode(err);
  if (code === undefined) return null;
  if (/TIMEOUT|TimeoutError/i.test(code)) return 'timeout';
  if (
    [
      'ECONNRESET',
      'ECONNREFUSED',
      'EPIPE',
      'ETIMEDOUT',
      'EAI_AGAIN',
      'UND_ERR_SOCKET',
      'UND_ERR_CLOSED',
      'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
      'ECONNABORTED',
      'ENETUNREACH',
      'EHOSTUNREACH',
    ].includes(code)
  ) {
    return code === 'ETIMEDOUT' ? 'timeout' : 'reset';
  }
  return null;
}

/** The `code` of an error or of the first error in its `cause` chain that has one. */
function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e instanceof Error; i++) {
    const c = (e as { code?: unknown }).code;
    if (typeof c === 'string') return c;
    if (e.name === 'TimeoutError') return 'TimeoutError';
    e = e.cause;
  }
  return undefined;
}

/** The error when transport failures outlast the retries. Never includes the URL (it has the query). */
export function networkError(
  method: string,
  path: string,
  kind: 'timeout' | 'reset',
  attempts: number,
  cause: unknown,
  outOfTime = false,
): ExporterError {
  const what = kind === 'timeout' ? 'timed out' : 'lost the connection';
  const code = errorCode(cause) ?? 'unknown';
  const note = attemptsNote(attempts, outOfTime) || ' (1 attempt)';
  return new ExporterError('API_NETWORK', `${method} ${path} ${what} (${code})${note}`, {
    retryable: true,
    details: { route: path, status: null, attempts, reason: code },
  });
}
