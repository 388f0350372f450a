import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const BIN = new URL('../../bin/report-exporter.mjs', import.meta.url).pathname;

describe('report-exporter simulate', () => {
  it('prints the base URL, fake credentials and a curl session, serves them, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'simulate', '--seed', '5', '--fault-empty-page', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner; output so far: ${out}`)), 30_000);
        child.stdout.on('data', () => {
          if (out.includes('Ctrl-C')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const baseUrl = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] as string;
      const clientId = /clientId:\s+(\S+)/.exec(out)?.[1] as string;
      const clientSecret = /clientSecret:\s+(\S+)/.exec(out)?.[1] as string;
      expect(out).toMatch(/fake/);
      expect(out).toContain(`curl -s -X POST ${baseUrl}/oauth/token`);
      const tokenRes = await fetch(`${baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId, clientSecret }),
      });
      const { jwt } = (await tokenRes.json()) as { jwt: string };
      const listUrl = /curl -s -H "Authorization: Bearer \$TOKEN" '([^']+)'/.exec(out)?.[1] as string;
      const page = await fetch(listUrl, { headers: { authorization: `Bearer ${jwt}` } });
      expect(page.status).toBe(200);
      const body = (await page.json()) as { data: unknown[]; nextCursor: string };
      expect(body.data).toHaveLength(5);
      const next = await fetch(`${listUrl}&nextCursor=${encodeURIComponent(body.nextCursor)}`, {
        headers: { authorization: `Bearer ${jwt}` },
      });
      expect(next.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(out).toMatch(/simulator stopped after \d+ request/);
  });
});
