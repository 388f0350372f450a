/**
 * The deployed run's credentials preflight (docs/api-client.md): Plan reads the credentials and makes
 * the run's one token request before any report starts, and records the answer in the plan it
 * returns, which the Map hands to every Export task with its task.
 *
 * - credentials missing, unreadable or malformed (CREDENTIALS_*, not transient) → thrown: Plan fails,
 *   the execution fails with the same message the CLI stops with (exit 2 or 1), before any task is
 *   written and with no manifest — a preflight failure is not a run;
 * - the token route refused them (401 AUTH_REJECTED, 403 AUTH_FORBIDDEN: final, retrying will not
 *   help) → `rejected` with the code and the client's (redacted) message: every Export task fails its
 *   report with exactly that error (`refusingApi`) without a token or data request, so a run makes one
 *   token request whatever the Map's concurrency or the number of Export containers;
 * - anything transient (a 5xx or 429 of the token route, a timeout, Secrets Manager throttled) →
 *   `unchecked`, with a warning: the Export tasks ask for their tokens as they would without the check;
 * - a token → `accepted`. It is dropped: a token never passes through the workflow's state (it would
 *   stay in the execution history); each Export container gets its own.
 *
 * The field holds a code and a message the client already redacted, never a secret or a token.
 */
import * as z from 'zod/mini';
import type { PageOptions, ReportingApi } from '../api/types';
import { describeError, ExporterError, isExporterError } from '../errors';
import type { Log } from '../log';
import { shortReason } from './payload';

/** Token-route answers that end token requests for the run (as `PageOptions.runId` does in-process). */
const FINAL_CODES = ['AUTH_REJECTED', 'AUTH_FORBIDDEN'] as const;

export const CredentialsCheckSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('accepted') }),
  z.object({ status: z.literal('unchecked'), reason: z.string() }),
  z.object({ status: z.literal('rejected'), code: z.enum(FINAL_CODES), message: z.string() }),
]);
export type CredentialsCheck = z.infer<typeof CredentialsCheckSchema>;

const isFinal = (err: unknown): err is ExporterError =>
  FINAL_CODES.some((code) => isExporterError(err, code));

/**
 * Reads the credentials and asks for one token (see above). Throws what the CLI's preflight throws
 * when the credentials cannot be read; never throws for the token route's answer.
 */
export async function checkCredentials(
  api: ReportingApi,
  call: Pick<PageOptions, 'deadlineMs' | 'runId'>,
  log: Log,
): Promise<CredentialsCheck> {
  const unchecked = (err: unknown): CredentialsCheck => {
    const reason = shortReason(describeError(err));
    log.warn('the API credentials could not be checked before the run; each report will try', {
      error: reason,
    });
    return { status: 'unchecked', reason };
  };
  try {
    await api.ready?.();
  } catch (err: unknown) {
    // Secrets Manager throttled or unreachable for a moment: the reports' own reads may succeed
    if (isExporterError(err) && err.retryable) return unchecked(err);
    throw err;
  }
  if (!api.authenticate) return { status: 'unchecked', reason: 'the API client cannot ask for a token' };
  try {
    await api.authenticate(call);
    return { status: 'accepted' };
  } catch (err: unknown) {
    if (isFinal(err)) {
      const message = shortReason(err.message);
      log.error('the API refused the credentials: every report of the run fails', {
        code: err.code,
        error: message,
      });
      return {
        status: 'rejected',
        code: err.code === 'AUTH_FORBIDDEN' ? err.code : 'AUTH_REJECTED',
        message,
      };
    }
    // trimmed to nothing: the same preflight failure as a missing field
    if (isExporterError(err, 'CREDENTIALS_INVALID')) throw err;
    return unchecked(err);
  }
}

/**
 * `api` as an Export task of a run whose check was `rejected` sees it: every report fails at its first
 * page with the plan's error, as the second report of a CLI run does after the token route's 401/403,
 * and nothing is sent. Otherwise `api` itself.
 */
export function refusingApi(api: ReportingApi, check: CredentialsCheck | undefined): ReportingApi {
  if (check?.status !== 'rejected') return api;
  const refused = () => new ExporterError(check.code, check.message, { details: { route: '/oauth/token' } });
  const redact = api.redact?.bind(api);
  return {
    pages: () => ({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(refused()) }),
    }),
    close: () => api.close(),
    ...(redact ? { redact } : {}),
  };
}
