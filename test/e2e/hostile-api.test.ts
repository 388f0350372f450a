/**
 * Issue 23's hostile API through the CLI, as an operator runs it: `report-exporter run` against a
 * loopback server for each case of test/support/hostile-cases.ts (ignored cursor, partial results in a
 * 200, gzip + latin-1, UTF-16 with a BOM, a problem report in a 200, 20 KB and 1 MB JWTs echoed, a
 * CR LF secret echoed trimmed). Each asserts the exit code, the message, the manifest's state, and
 * scans every output — stdout, stderr, every file written, the email — for every form of every
 * secret. test/handlers/hostile-workflow.e2e.test.ts runs the same cases through the deployed bundles.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManifestSchema } from '#core/manifest';
import {
  CLIENT_ID,
  HOSTILE_CASES,
  hostileConfig,
  leaks,
  needles,
  outcomeOf,
  SCHEDULE_AT,
  serveCase,
} from '../support/hostile-cases';
import { type HostileServer, startHostileServer } from '../support/hostile-server';
import { readOutputs } from '../support/outputs';
import { apiCredentials, runArgs, runCli } from '../support/run-cli';

let server: HostileServer;
let dir: string;

beforeAll(async () => {
  server = await startHostileServer({ maxHeaderSize: 4 * 1024 * 1024 });
  dir = await mkdtemp(join(tmpdir(), 'hostile-api-'));
  await writeFile(join(dir, 'reports.yaml'), hostileConfig(server.baseUrl));
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('report-exporter run against a hostile API', () => {
  for (const c of HOSTILE_CASES) {
    it(`${c.id}: exits ${c.expected.exit} with the report ${c.expected.status}, and no secret in any output`, async () => {
      const jwt = serveCase(server, c);
      const out = join(dir, `${c.id}-out`);
      const mail = join(dir, `${c.id}-mail`);
      const requestsBefore = server.requests.length;
      const { code, stdout, stderr } = await runCli(
        runArgs(c.id, SCHEDULE_AT, '--out', out, '--email-dir', mail, '-c', join(dir, 'reports.yaml')),
        { env: apiCredentials({ clientId: CLIENT_ID, clientSecret: c.secret }), timeoutMs: 120_000 },
      );
      const texts: Record<string, string> = { stdout, stderr, ...(await readOutputs([out, mail])) };
      const manifestPath = Object.keys(texts).find((k) => k.endsWith('manifest.json'));
      expect(manifestPath, `no manifest; stdout:\n${stdout}\nstderr:\n${stderr}`).toBeDefined();
      const manifest = ManifestSchema.parse(JSON.parse(texts[manifestPath ?? ''] ?? ''));
      const [report] = manifest.reports;
      if (!report) throw new Error('no report in the manifest');
      const outcome = outcomeOf(report);

      expect({ code, status: outcome.status }).toEqual({ code: c.expected.exit, status: c.expected.status });
      expect(outcome.exit).toBe(code);
      expect(outcome.text).toContain(c.expected.message);
      if (c.expected.message !== '') expect(stdout).toContain(c.expected.message.slice(0, 60));
      if (c.expected.warning) expect(report.warnings?.map((w) => w.code)).toContain(c.expected.warning);
      if (c.expected.csvContains) {
        const csv = Object.entries(texts).find(([k]) => k.endsWith('.csv'))?.[1];
        expect(csv).toContain(c.expected.csvContains);
      }
      // the emails were written (the operators' names the warning); it went through the scan below
      const emails = Object.entries(texts).filter(([k]) => k.endsWith('(decoded parts)'));
      expect(emails.length).toBeGreaterThan(0);
      if (c.expected.warning) {
        const warned = emails.filter(([, t]) =>
          t.includes(`${c.expected.warning} (count 1): ${c.expected.message.slice(0, 60)}`),
        );
        expect(warned.map(([k]) => k)).not.toEqual([]);
      }
      // the window's lease was released (a re-run need not wait for it to expire)
      expect(Object.keys(texts).filter((k) => k.endsWith('_lease.json'))).toEqual([]);
      // paging ended: a handful of requests, not thousands
      expect(server.requests.length - requestsBefore).toBeLessThan(20);
      expect(leaks(texts, needles(c.secret, jwt))).toEqual([]);
    });
  }
});
