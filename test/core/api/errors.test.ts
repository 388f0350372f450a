import { describe, expect, it } from 'vitest';
import { dataRouteError, serverText, tokenError, validSetOf } from '#core/api/errors';
import { networkFailureKind } from '#core/api/network';

describe('serverText', () => {
  it('joins title, detail and message, keeping each fact once', () => {
    expect(serverText(JSON.stringify({ title: 'Invalid metrics', detail: 'x is not valid' }))).toBe(
      'Invalid metrics: x is not valid',
    );
    expect(
      serverText(
        JSON.stringify({
          message: 'Invalid metrics: x is not valid',
          title: 'Invalid metrics',
          detail: 'x is not valid',
        }),
      ),
    ).toBe('Invalid metrics: x is not valid');
  });

  it('falls back to the first 2 KB of text, with control characters flattened', () => {
    const text = serverText(`line1\r\nline2\u0007${'y'.repeat(4000)}`);
    expect(text.startsWith('line1 line2 yyy')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(2048);
  });

  it('uses error.message when the body nests it', () => {
    expect(serverText('{"error":{"message":"quota exceeded"}}')).toBe('quota exceeded');
  });
});

describe('validSetOf', () => {
  it.each([
    ['{"validMetrics":["a","b"]}', ['a', 'b']],
    ['{"detail":"x","allowed":["c"]}', ['c']],
    ['{"errors":[{"field":"metrics","valid":["d","e"]}]}', ['d', 'e']],
    ['{"invalidMetrics":["x"],"metricsForThisFilter":["f","g"]}', ['f', 'g']],
    ['{"problem":{"choices":["h"]}}', ['h']],
    ['{"requested":["likes","coments"],"options":["likes","comments"]}', ['likes', 'comments']],
  ])('finds the valid set in %s', (body, want) => {
    expect(validSetOf(body, ['likes', 'coments'])).toEqual(want);
  });

  it('does not take the names that were sent, or the invalid ones, for the valid set', () => {
    expect(validSetOf('{"metrics":["likes","coments"]}', ['likes', 'coments'])).toBeNull();
    expect(validSetOf('{"unknownMetrics":["coments"]}', ['likes', 'coments'])).toBeNull();
  });

  it('shows the whole detail and the valid set from an unusually named field in the 400 message', () => {
    const detail = 'Metric coments is not available for platform instagram. See the list of options.';
    const body = JSON.stringify({ detail, options: ['likes', 'comments', 'shares'] });
    const err = dataRouteError(
      { method: 'GET', path: '/v2/campaigns/performance', status: 400, headers: {}, body },
      { metrics: ['likes', 'coments'] },
    );
    expect(err.message).toBe(
      `GET /v2/campaigns/performance answered 400 Bad Request: ${detail} (valid metrics named by the server: likes, comments, shares)`,
    );
  });

  it('gives null when the body names none', () => {
    expect(validSetOf('{"detail":"valid: a, b"}')).toBeNull();
    expect(validSetOf('not json')).toBeNull();
  });
});

describe('codes', () => {
  const f = (status: number, body = '{}') => ({
    method: 'GET' as const,
    path: '/v2/x',
    status,
    headers: {},
    body,
  });

  it.each([
    [400, 'API_BAD_REQUEST', false],
    [403, 'API_FORBIDDEN', false],
    [404, 'API_NOT_FOUND', false],
    [409, 'API_BAD_REQUEST', false],
    [429, 'API_RATE_LIMITED', true],
    [503, 'API_SERVER_ERROR', true],
  ])('maps a data-route %i to %s (retryable %s)', (status, code, retryable) => {
    const err = dataRouteError(f(status));
    expect(err.code).toBe(code);
    expect(err.retryable).toBe(retryable);
    expect(err.details).toMatchObject({ route: '/v2/x', status });
  });

  it('maps token statuses to AUTH_REJECTED, AUTH_FORBIDDEN and AUTH_FAILED', () => {
    expect(tokenError({ ...f(401), method: 'POST' }).code).toBe('AUTH_REJECTED');
    expect(tokenError({ ...f(403), method: 'POST' }).code).toBe('AUTH_FORBIDDEN');
    expect(tokenError({ ...f(400), method: 'POST' }).code).toBe('AUTH_FAILED');
  });

  it('classifies transport errors by their code, including a wrapped cause', () => {
    expect(networkFailureKind(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }))).toBe(
      'timeout',
    );
    expect(
      networkFailureKind(
        new Error('fetch failed', { cause: Object.assign(new Error('r'), { code: 'ECONNRESET' }) }),
      ),
    ).toBe('reset');
    expect(networkFailureKind(new TypeError('bug'))).toBeNull();
  });
});
