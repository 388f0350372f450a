/**
 * The deployed run's credentials preflight (#core/run/credentials-check) over the real API client on
 * a scripted token route: what Plan records for each answer, how many requests it makes, and that an
 * Export task given a `rejected` check fails its report with exactly the error a CLI run's reports
 * fail with, without a request of its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type ClientCredentials, createApiClient } from '#core/api/client';
import { ExporterError } from '#core/errors';
import { CredentialsCheckSchema, checkCredentials, refusingApi } from '#core/run/credentials-check';
import { MAX_REASON_CHARS } from '#core/run/payload';
import { createHttp } from '#http';
import { failure } from '../../support/pages';
import {
  makeJwt,
  ORIGIN,
  POSTS_REQUEST,
  recordingLog,
  type ScriptedReply,
  scriptedApi,
} from '../api/helpers';

const SECRET = 'CANARY-pl4n-s3cret';
const CREDS = { clientId: 'client-plan', clientSecret: SECRET };
const REQUEST = POSTS_REQUEST;
const FORBIDDEN: ScriptedReply = {
  status: 403,
  body: { title: 'Client not permitted', detail: 'Contact the account team.' },
  headers: { 'content-type': 'application/problem+json' },
};
const data = { status: 200, body: { data: [], nextCursor: null } };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A client whose token route answers `token`; the requests it saw. */
function clientOn(
  token: () => ScriptedReply,
  credentials: () => Promise<ClientCredentials> = async () => CREDS,
) {
  const server = scriptedApi((req) => (req.path === '/oauth/token' ? token() : data));
  cleanups.push(() => server.agent.close());
  const client = createApiClient({
    baseUrl: ORIGIN,
    credentials,
    http: (pool) => createHttp({ ...pool, dispatcher: server.agent }),
    maxRetries: 0,
  });
  return { server, client };
}

describe('checkCredentials (Plan)', () => {
  it('a token 403: rejected with the message a CLI run’s reports fail with, after one token request', async () => {
    const log = recordingLog();
    const { server, client } = clientOn(() => FORBIDDEN);
    const check = await checkCredentials(client, { runId: 'r1' }, log);
    expect(server.tokenRequests()).toHaveLength(1);
    expect(server.dataRequests()).toHaveLength(0);
    // the CLI's path: a report of a run whose token route answers 403
    const cli = clientOn(() => FORBIDDEN);
    const cliError = await failure(cli.client.pages(REQUEST, { runId: 'cli' }));
    expect(check).toEqual({ status: 'rejected', code: 'AUTH_FORBIDDEN', message: cliError.message });
    expect(CredentialsCheckSchema.parse(JSON.parse(JSON.stringify(check)))).toEqual(check);
    expect(log.text()).toContain('the API refused the credentials');
  });

  it('a token 401 echoing the secret: rejected, the secret redacted from the recorded message', async () => {
    const { server, client } = clientOn(() => ({
      status: 401,
      body: { title: 'Invalid client credentials', detail: `unknown client secret "${SECRET.trim()}"` },
    }));
    const log = recordingLog();
    const check = await checkCredentials(client, {}, log);
    expect(check.status).toBe('rejected');
    expect(check).toMatchObject({ code: 'AUTH_REJECTED' });
    expect(JSON.stringify(check)).toContain('unknown client secret \\"[redacted]\\"');
    expect(`${JSON.stringify(check)} ${log.text()}`).not.toContain(SECRET);
    expect(server.tokenRequests()).toHaveLength(1);
  });

  it('a long server text is cut as a manifest reason is, so the plan stays small', async () => {
    const { client } = clientOn(() => ({
      status: 403,
      body: { title: 'Denied', detail: 'x'.repeat(20_000) },
    }));
    const check = await checkCredentials(client, {}, recordingLog());
    expect(check.status === 'rejected' && Array.from(check.message).length).toBe(MAX_REASON_CHARS);
  });

  it('a token: accepted, and the token is nowhere in what Plan returns', async () => {
    const jwt = makeJwt({ sub: 'plan', exp: Date.now() / 1000 + 3600 });
    const { server, client } = clientOn(() => ({ status: 200, body: { jwt } }));
    const check = await checkCredentials(client, {}, recordingLog());
    expect(check).toEqual({ status: 'accepted' });
    expect(server.tokenRequests()).toHaveLength(1);
  });

  it('a transient token failure (503): unchecked with a warning, so the reports try as before', async () => {
    const log = recordingLog();
    const { server, client } = clientOn(() => ({ status: 503, body: { title: 'Unavailable' } }));
    const check = await checkCredentials(client, {}, log);
    expect(check.status).toBe('unchecked');
    expect(check.status === 'unchecked' && check.reason).toContain('503');
    expect(log.lines.map((l) => l.level)).toContain('warn');
    expect(refusingApi(client, check)).toBe(client);
    expect(server.tokenRequests()).toHaveLength(1);
  });

  it('credentials that cannot be read: thrown as the CLI’s preflight throws them, nothing sent', async () => {
    const missing = new ExporterError(
      'CREDENTIALS_MISSING',
      'secret "test/reporting" was not found in Secrets Manager: create it',
    );
    const { server, client } = clientOn(
      () => FORBIDDEN,
      async () => {
        throw missing;
      },
    );
    await expect(checkCredentials(client, {}, recordingLog())).rejects.toBe(missing);
    expect(server.requests).toHaveLength(0);
  });

  it('a secret that is only whitespace: CREDENTIALS_INVALID before any request', async () => {
    const { server, client } = clientOn(
      () => FORBIDDEN,
      async () => ({ clientId: 'client-plan', clientSecret: ' \r\n' }),
    );
    await expect(checkCredentials(client, {}, recordingLog())).rejects.toMatchObject({
      code: 'CREDENTIALS_INVALID',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('Secrets Manager throttled for a moment: unchecked, not a failed run', async () => {
    const { client } = clientOn(
      () => FORBIDDEN,
      async () => {
        throw new ExporterError('CREDENTIALS_UNAVAILABLE', 'could not read secret "s": ThrottlingException', {
          retryable: true,
        });
      },
    );
    const check = await checkCredentials(client, {}, recordingLog());
    expect(check).toMatchObject({ status: 'unchecked' });
  });
});

describe('refusingApi (Export)', () => {
  it('fails every report of a rejected run with the plan’s code and message, sending nothing', async () => {
    const message =
      'client not permitted — retrying will not help (POST /oauth/token answered 403 Forbidden)';
    const { server, client } = clientOn(() => ({ status: 200, body: { jwt: 'a.b.c' } }));
    const api = refusingApi(client, { status: 'rejected', code: 'AUTH_FORBIDDEN', message });
    for (let i = 0; i < 3; i++) {
      const err = await failure(api.pages(REQUEST, { runId: 'r1' }));
      expect([err.code, err.message]).toEqual(['AUTH_FORBIDDEN', message]);
    }
    expect(server.requests).toHaveLength(0);
    expect(api.redact?.(`x ${SECRET}`)).toBe(`x ${SECRET}`); // nothing known yet: delegated, not invented
    await api.close();
  });

  it('leaves the client as it is for an accepted, unchecked or absent check', () => {
    const { client } = clientOn(() => FORBIDDEN);
    expect(refusingApi(client, { status: 'accepted' })).toBe(client);
    expect(refusingApi(client, { status: 'unchecked', reason: 'HTTP 503' })).toBe(client);
    expect(refusingApi(client, undefined)).toBe(client);
  });
});
