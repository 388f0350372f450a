import { type Simulator, type SimulatorOptions, startSimulator } from '#simulator/server';

export const WINDOW = { startDate: '2026-11-02', endDate: '2026-11-08' };

/** Starts a simulator for one test file and a token for its default client. */
export async function start(options: SimulatorOptions = {}): Promise<{ sim: Simulator; jwt: string }> {
  const sim = await startSimulator(options);
  const jwt = await token(sim);
  return { sim, jwt };
}

export async function token(sim: Simulator, creds = sim.credentials): Promise<string> {
  const res = await fetch(`${sim.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(creds),
  });
  if (res.status !== 200) throw new Error(`token request answered ${res.status}`);
  const body = (await res.json()) as { jwt: string };
  return body.jwt;
}

/** Builds a query string: arrays repeated (`a=1&a=2`) unless `format` says otherwise. */
export function qs(
  params: Record<string, string | number | string[] | undefined>,
  format: 'repeat' | 'comma' | 'brackets' = 'repeat',
): string {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    if (!Array.isArray(v)) out.set(k, String(v));
    else if (format === 'comma') out.set(k, v.join(','));
    else for (const x of v) out.append(format === 'brackets' ? `${k}[]` : k, x);
  }
  return out.toString();
}

export async function get(
  sim: Simulator,
  jwt: string | undefined,
  path: string,
): Promise<{ status: number; body: unknown; headers: Headers; text: string }> {
  const res = await fetch(`${sim.baseUrl}${path}`, {
    headers: jwt ? { authorization: `Bearer ${jwt}` } : {},
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, headers: res.headers, text };
}

export interface Page {
  data: unknown[];
  nextCursor?: string | null;
}

/** Follows nextCursor until the last page; returns every row and every cursor seen. */
export async function allPages(
  sim: Simulator,
  jwt: string,
  route: string,
  params: Record<string, string | number | string[] | undefined>,
): Promise<{ rows: unknown[]; cursors: string[]; pages: number }> {
  const rows: unknown[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages < 100_000; pages++) {
    const r = await get(sim, jwt, `/v2/${route}?${qs({ ...params, nextCursor: cursor })}`);
    if (r.status !== 200) throw new Error(`${route} answered ${r.status}: ${r.text}`);
    const page = r.body as Page;
    rows.push(...page.data);
    if (!page.nextCursor) return { rows, cursors, pages };
    cursors.push(page.nextCursor);
    cursor = page.nextCursor;
  }
  throw new Error('too many pages');
}
