/**
 * Servers that echo what they were sent: a data route whose 400/401 bodies quote the JWT's segments
 * (and the client secret) in several encodings, and a WAF page that echoes the raw token request.
 * Every output of a CLI run — stdout, stderr, the exported files and manifest, the email (.eml parts
 * and .html) — is then scanned for every encoding of the secret, the JWT and each of its segments.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileServer, json, jwtOf, startHostileServer } from '../support/hostile-server';
import { readOutputs } from '../support/outputs';
import { apiCredentials, runArgs, runCli } from '../support/run-cli';

/** Needs JSON escaping (`"` and `\`), URL encoding (`/ + space`) and HTML escaping (`&`). */
const SECRET = 'pa"ss\\w0rd/with+plus & space-0123456789';
const JWT = jwtOf({ sub: 'client-42', exp: 4_000_000_000, scope: 'reports:read' });

/** Every encoding of `s` a hostile echo may use (built here, independently of the redactor). */
function encodings(s: string): Record<string, string> {
  const jsonOnce = JSON.stringify(s).slice(1, -1);
  return {
    raw: s,
    json: jsonOnce,
    jsonTwice: JSON.stringify(jsonOnce).slice(1, -1),
    url: encodeURIComponent(s),
    form: new URLSearchParams({ x: s }).toString().slice(2),
    base64: Buffer.from(s).toString('base64'),
    base64url: Buffer.from(s).toString('base64url'),
    base64OfJson: Buffer.from(jsonOnce).toString('base64'),
  };
}

/** What must never be found: the secret, the JWT and each segment, in every encoding. */
function needles(): Array<[string, string]> {
  const [header, payload, signature] = JWT.split('.') as [string, string, string];
  const pieces: Record<string, string> = { secret: SECRET, jwt: JWT, header, payload, signature };
  return Object.entries(pieces).flatMap(([what, value]) =>
    Object.entries(encodings(value))
      .filter(([, form]) => form.length >= 8)
      .map(([how, form]): [string, string] => [`${what} (${how})`, form]),
  );
}

let server: HostileServer;
let dir: string;

beforeAll(async () => {
  server = await startHostileServer();
  dir = await mkdtemp(join(tmpdir(), 'secret-echo-'));
  await writeFile(
    join(dir, 'reports.yaml'),
    `
api: { baseUrl: "${server.baseUrl}", credentialsSecret: test/reporting, maxRetries: 1 }
output: { prefix: exports/, formats: [csv] }
email: { from: Reports <reports@example.com> }
schedules:
  - id: daily
    cron: "0 6 * * ? *"
    window: yesterday
    recipients: [team@example.com]
    reports:
      - id: posts
        route: posts/performance
        metrics: [likes]
      - id: platforms
        route: platforms/performance
        metrics: [likes]
`,
  );
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

interface Outputs {
  code: number;
  /** name → text, for every place the run wrote to. */
  texts: Record<string, string>;
}

/** One CLI run into its own folders; every text it wrote (stdout, stderr, files, emails) by name. */
async function runOnce(name: string): Promise<Outputs> {
  const out = join(dir, `${name}-out`);
  const mail = join(dir, `${name}-mail`);
  const { code, stdout, stderr } = await runCli(
    runArgs(
      'daily',
      '2026-11-23T06:00:00Z',
      '--out',
      out,
      '--email-dir',
      mail,
      '-c',
      join(dir, 'reports.yaml'),
    ),
    { env: apiCredentials({ clientId: 'client-42', clientSecret: SECRET }) },
  );
  return { code, texts: { stdout, stderr, ...(await readOutputs([out, mail])) } };
}

function leaks(texts: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [where, text] of Object.entries(texts)) {
    for (const [what, form] of needles()) if (text.includes(form)) found.push(`${what} in ${where}`);
  }
  return found;
}

describe('nothing secret leaves a run, whatever the server echoes', () => {
  it('a data route whose 400 and 401 bodies quote the JWT segments and the secret leaves no trace in any output', async () => {
    const [header, payload, signature] = JWT.split('.') as [string, string, string];
    const echo = (what: string) =>
      `${what}: header ${header}, payload ${payload}, signature ${signature}; ` +
      `b64 ${Buffer.from(payload).toString('base64')} / ${Buffer.from(signature).toString('base64url')}; ` +
      `json ${JSON.stringify(SECRET)} url ${encodeURIComponent(SECRET)} raw ${SECRET}`;
    server.routes.set('/oauth/token', (_req, res) => json(res, 200, { jwt: JWT }));
    server.routes.set('/v2/posts/performance', (_req, res) =>
      json(res, 400, { title: 'Bad Request', detail: echo('you sent'), errors: [{ token: JWT }] }),
    );
    server.routes.set('/v2/platforms/performance', (_req, res) =>
      json(res, 401, { title: 'Unauthorized', message: echo('rejected') }),
    );
    const { code, texts } = await runOnce('echo');
    expect(code).toBe(1);
    // the run got far enough to write the failures everywhere (and masked what was echoed)
    expect(texts.stdout).toContain('FAILED');
    expect(Object.keys(texts).some((k) => k.endsWith('manifest.json'))).toBe(true);
    expect(Object.keys(texts).some((k) => k.endsWith('.eml'))).toBe(true);
    expect(Object.values(texts).join('\n')).toContain('[redacted]');
    expect(leaks(texts)).toEqual([]);
  });

  it('a WAF page echoing the raw token request (secret JSON-escaped, URL-encoded, base64) leaves no trace in any output', async () => {
    server.routes.set('/oauth/token', (req, res) => {
      const raw = `${req.method} ${req.path} HTTP/1.1\r\ncontent-type: ${req.headers['content-type']}\r\n\r\n${req.body}`;
      res
        .writeHead(403, { 'content-type': 'text/html' })
        .end(
          `<html><body><h1>Request blocked</h1><pre>${raw}</pre>` +
            `<p>ref ${Buffer.from(raw).toString('base64')}</p><p>q=${encodeURIComponent(req.body)}</p>` +
            `<p>${JSON.stringify(req.body)}</p></body></html>`,
        );
    });
    const { code, texts } = await runOnce('waf');
    expect(code).toBe(1);
    expect(
      server.requests.some((r) => r.path === '/oauth/token' && r.body.includes(JSON.stringify(SECRET))),
    ).toBe(true);
    expect(texts.stdout).toContain('client not permitted');
    expect(Object.values(texts).join('\n')).toContain('[redacted]');
    expect(leaks(texts)).toEqual([]);
  });
});
