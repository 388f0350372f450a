import { describe, expect, it } from 'vitest';
import { startCli } from '../support/run-cli';

describe('report-exporter simulate', () => {
  it('prints the base URL, fake credentials and a curl session, serves them, and stops on SIGTERM', async () => {
    const { child, done } = startCli(['simulate', '--seed', '5', '--fault-empty-page', '0']);
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner; output so far: ${out}`)), 30_000);
        child.stdout?.on('data', () => {
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
    expect((await done).code).toBe(0);
    expect(out).toMatch(/simulator stopped after \d+ request/);
  });
});
