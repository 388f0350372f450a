/**
 * A whole CLI run against a server whose rows carry `constructor`, `__proto__` and `toString` fields in
 * some rows and not others: the run succeeds and the summary email is written with its top table.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileServer, startHostileServer } from '../support/hostile-server';
import { readOutputs } from '../support/outputs';
import { apiCredentials, runArgs, runCli } from '../support/run-cli';

let server: HostileServer;
let dir: string;
const CONFIG = () => join(dir, 'reports.yaml');

beforeAll(async () => {
  server = await startHostileServer({ issueTokens: true });
  dir = await mkdtemp(join(tmpdir(), 'hostile-rows-'));
  server.routes.set('/v2/creators/performance', (_req, res) => {
    // raw JSON text, so "__proto__" arrives as a field the way a server would send it
    const rows = Array.from({ length: 12 }, (_, i) => {
      const odd =
        i % 3 === 0
          ? `"constructor":"ctor-${i}","__proto__":"proto-${i}",`
          : i % 3 === 1
            ? `"toString":"ts-${i}",`
            : '';
      return `{"creatorId":"c${i}",${odd}"metrics":{"likes":${100 - i}}}`;
    });
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(`{"data":[${rows.join(',')}],"nextCursor":null}`);
  });
  await writeFile(
    CONFIG(),
    `api: { baseUrl: "${server.baseUrl}", credentialsSecret: s }
output: { formats: [csv] }
email: { from: reports@example.com }
schedules:
  - id: daily
    cron: "0 6 * * ? *"
    window: yesterday
    recipients: [team@example.com]
    reports:
      - { id: creators, route: creators/performance, metrics: [likes], summary: { kpis: [likes], topBy: likes, topN: 10 } }
`,
  );
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('constructor and __proto__ fields in top rows', () => {
  it('the run succeeds and the summary email is written with the top table', async () => {
    const mail = join(dir, 'mail');
    const { code, stdout, stderr } = await runCli(
      runArgs(
        'daily',
        '2026-11-23T06:00:00Z',
        '--out',
        join(dir, 'out'),
        '--email-dir',
        mail,
        '-c',
        CONFIG(),
      ),
      { env: apiCredentials({ clientId: 'c', clientSecret: 's3cret-value' }) },
    );
    expect(stderr).not.toContain('is not a function');
    expect(code).toBe(0);
    expect(stdout).toContain('creators             12 rows');
    const html = Object.entries(await readOutputs([mail])).filter(([path]) => path.endsWith('.html'));
    expect(html).toHaveLength(1);
    const [[, text = ''] = []] = html;
    expect(text).toContain('data-role="top"');
    expect(text).toContain('ctor-0');
    expect(text).not.toContain('function Object');
  });
});
